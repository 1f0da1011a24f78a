// PiperNet: Linux adapters: HTTP client (libcurl), Chromium over CDP, clipboard.
