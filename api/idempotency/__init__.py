"""Idempotent requests: a retried creation or placement is answered once."""

from api.idempotency.service import Answer, IdempotentRequests, credential_digest, fingerprint

__all__ = ["Answer", "IdempotentRequests", "credential_digest", "fingerprint"]
