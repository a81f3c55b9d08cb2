"""Play over the network (issue #15): a server that holds the games and decides every
command (server.py), and the client a bot or a front end plays a seat through (client.py).
The wire messages and the checks both sides share are in protocol.py."""
