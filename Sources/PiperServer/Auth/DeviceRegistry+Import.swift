import Foundation
import PiperCore

extension DeviceRegistry {
    /// What `devices.json` held before the credentials moved into the store.
    struct FormerFile: Decodable {
        struct Pairing: Decodable {
            var codeHash: String
            var expires: Date
        }
        var devices: [Device] = []
        var pairings: [Pairing] = []
    }

    /// The name the former file is renamed to once its records are in the store.
    static let importedSuffix = ".migrated"

    /// Moves the state folder's former `devices.json` into the store, once: under `flock` on
    /// `devices.lock`, its devices and pairings are added in one transaction (records already
    /// there are kept, so an import cut short between the commit and the rename is repeated
    /// harmlessly), then the file is renamed aside to `devices.json.migrated`. Says on stderr
    /// what moved. Returns how many devices were added (0 when there was no file).
    @discardableResult
    public func importFiles() throws -> Int {
        guard FileManager.default.fileExists(atPath: devicesFile.path) else { return 0 }
        return try locked {
            guard let data = FileManager.default.contents(atPath: devicesFile.path) else { return 0 }
            var former = FormerFile()
            if !data.isEmpty {
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                former = try decoder.decode(FormerFile.self, from: data)
            }
            let added = try credentials.importRecords(devices: former.devices,
                                                      pairings: former.pairings.map { ($0.codeHash, $0.expires) })
            let aside = devicesFile.path + Self.importedSuffix
            guard rename(devicesFile.path, aside) == 0 else { throw StateFolderError.cannotWrite(aside) }
            let line = "Moved \(added) of \(former.devices.count) devices and \(former.pairings.count) pending pairings from "
                + "\(devicesFile.path) into the \(credentials.kind) store; the file is now \(aside)\n"
            FileHandle.standardError.write(Data(line.utf8))
            return added
        }
    }
}
