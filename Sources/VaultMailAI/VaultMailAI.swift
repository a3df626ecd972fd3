// VaultMailAI: the on-device AI adapters behind Core's `AIEngine` (issue 15).
