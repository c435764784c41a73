"""The web server: the table page, the websocket protocol (docs/protocol.md), the store."""
