// PiperCore: share input, router, config, messages, ShareFlow and its ports.
