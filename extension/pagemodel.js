// The page model: see the page-model issue. Replaced by the real script.
