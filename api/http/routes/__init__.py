"""The HTTP routes: parse, call one service, return a response model."""
