// PiperSystem: the Linux plumbing under the adapters, each piece once: one libcurl easy-handle
// wrapper (`CurlEasy`, `CurlError`, `CurlReceiver`) and one process spawner (`ProcessSpawner`).
