// piper-bench-download URL WORKDIR: the downloader against `curl -o`, same URL, same disk.
// No callbacks or Dispatch handlers here; the work lives in DownloadBenchmark.swift.
import Foundation

exit(DownloadBenchmark.run(CommandLine.arguments))
