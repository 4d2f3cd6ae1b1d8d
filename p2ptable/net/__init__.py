"""Playing over the network: signed wire messages, the sans-IO session, the ZeroMQ adapter."""
