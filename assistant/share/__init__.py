"""Sharing the table: a small web server on the local network, so each player records their own moves from their
phone (docs/share.md). `server.py` is the server and its binding, `routes.py` the aiohttp application's route table
and factory, `state.py` its typed state, `middleware.py` its guards, `handlers/` its handler functions an area,
`responses.py` what it answers with, `guards.py` the join code, the guessing limits, the device tokens and the move
limit, `connections.py` the connections it holds and for how long, `logs.py` asyncio's
and aiohttp's logs kept off the terminal, `address.py` where it may listen, `local_name.py` the table's short local
name (`unicorns.local`, by multicast DNS), `page/` the phone's page. An adapter: it is given callables by the front
end and never imports the session or the user interface.
"""
