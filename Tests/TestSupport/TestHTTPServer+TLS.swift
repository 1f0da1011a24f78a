import Foundation

extension TestHTTPServer {
    /// A throwaway self-signed certificate and key in `folder` (openssl, valid one day), for a
    /// `tls:` server posing as x.com or twitter.com (or 127.0.0.1) to a client told to accept it.
    public static func selfSignedCertificate(in folder: URL) throws -> (cert: URL, key: URL) {
        let cert = folder.appendingPathComponent("cert.pem"), key = folder.appendingPathComponent("key.pem")
        let made = try runProcessCapturing("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=x.com",
            "-addext", "subjectAltName=DNS:x.com,DNS:twitter.com,IP:127.0.0.1", "-keyout", key.path, "-out", cert.path,
        ])
        guard made.status == 0 else { throw CertificateError(status: made.status, stderr: made.stderr) }
        return (cert, key)
    }

    public struct CertificateError: Error {
        public let status: Int32
        public let stderr: String
    }
}
