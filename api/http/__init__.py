"""The HTTP layer: the app factory, routes, problem responses, middleware."""
