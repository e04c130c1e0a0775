"""The helpers that the tests (``tests/``) and the benchmarks (``bench/``) both use, once: real
processes (:mod:`testkit.processes`), ``foursquare serve`` and ``uvicorn --factory`` servers
(:mod:`testkit.server`), HAProxy in front of two of them (:mod:`testkit.proxy`), throwaway
databases (:mod:`testkit.databases`) and a light HTTP/1.1 client (:mod:`testkit.http`).

It imports the service (``api``) and nothing of ``tests/`` or ``bench/``. It is not part of the
installed package (nor of the image): the tests and the benchmarks import it from the
repository's root, as they import themselves.
"""
