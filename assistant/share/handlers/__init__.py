"""The phones' server's handler functions, one module an area: `page` (the page and its files), `join` (asking
for the code's players, joining, who a phone is), `events` (the phone's view of the table and its event stream),
`cards` (the card search), `moves` (a move and an answer). Each reads the application's `TableState`
(`state.state_of`) and asks `middleware.device_of` for the device; `routes.py` is the table that names them.
"""
