// PiperServer: the backend: routes, stores, sanitizer, reader page.
