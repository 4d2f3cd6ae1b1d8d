"""Terminal rendering: text built from views and ledger events, never from hidden state."""
