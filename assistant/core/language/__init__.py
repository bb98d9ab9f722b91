"""The command language and the conversation: verbs, the parser, builders, the lobby, replies."""
