import Foundation
import PiperCore
import PiperTestSupport
import Testing
@testable import PiperServer

/// The share ledger's contract, for SQLite and PostgreSQL alike, through two connections to
/// one store (as two servers hold): recent shares, idempotency keys, and server secrets.
@Suite(.ownThread) struct ShareLedgerContractTests {
    static func record(_ id: String, _ seconds: Double, status: ShareRecord.Status = .failed, job: String? = nil) -> ShareRecord {
        var record = ShareRecord(id: id, created: Date(timeIntervalSince1970: seconds), device: "phone", source: "https://example.org/\(id)",
                                 status: status, message: "m \(id)", httpStatus: status == .queued ? 202 : 400)
        record.job = job
        return record
    }

    @Test(arguments: CredentialDriver.available)
    func recentSharesAreTheNewestKeptWhicheverConnectionWroteThem(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        let (first, second) = (a.credentials, b.credentials)
        try first.addShare(Self.record("r1", 1), keeping: 2)
        try second.addShare(Self.record("r2", 2, status: .queued, job: "job-2"), keeping: 2)
        try first.addShare(Self.record("r3", 3), keeping: 2)
        #expect(try second.recentShares(limit: 10).map(\.id) == ["r3", "r2"], "the oldest beyond the kept two is gone")
        #expect(try first.recentShares(limit: 1).map(\.id) == ["r3"])
        #expect(try first.shares(ids: ["r2", "r1", "r3"]).map(\.id) == ["r2", "r3"], "in the order asked, the dropped one left out")
        #expect(try second.shares(ids: ["r3"]).first == Self.record("r3", 3), "a record reads back whole")

        // A queued media share is followed until its progress says its job ended.
        #expect(try first.followedShares(limit: 10).map(\.id) == ["r2"])
        var moving = try #require(try first.shares(ids: ["r2"]).first)
        moving.progress = MediaJobState(state: .downloading, bytes: 10, total: 100)
        try second.updateShare(moving)
        #expect(try first.shares(ids: ["r2"]).first?.progress?.summary == "downloading 10 %")
        #expect(try first.followedShares(limit: 10).map(\.id) == ["r2"], "still moving")
        moving.progress = MediaJobState(state: .imported, libraryPath: "Podcasts/ep.mp3")
        try first.updateShare(moving)
        #expect(try second.followedShares(limit: 10).isEmpty, "an ended job is no longer followed")
        #expect(try second.recentShares(limit: 10).first { $0.id == "r2" }?.progress?.summary == "imported as Podcasts/ep.mp3")
    }

    @Test(arguments: CredentialDriver.available)
    func aKeyIsClaimedOnceAndAnswersItsRetries(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        let (first, second) = (a.credentials, b.credentials)
        let now = Date()
        let claim = ShareKeyClaim(key: "key-0001", device: "phone", fingerprint: "f1")
        #expect(try first.claimShareKey(claim, owner: "a", now: now, lease: 10) == .claimed(done: ""))
        #expect(try second.claimShareKey(claim, owner: "b", now: now, lease: 10) == .running, "the retry waits for the first try")
        var other = claim
        other.fingerprint = "f2"
        #expect(try second.claimShareKey(other, owner: "b", now: now, lease: 10) == .conflict)
        var laptop = claim
        laptop.device = "laptop"
        #expect(try second.claimShareKey(laptop, owner: "b", now: now, lease: 10) == .claimed(done: ""), "keys are per device")
        try first.finishShareKey(claim, owner: "a", records: "r1,r2", done: "0=r1,1=r2", now: now)
        #expect(try second.claimShareKey(claim, owner: "b", now: now.addingTimeInterval(60), lease: 10) == .done(records: "r1,r2"))
        #expect(try second.claimShareKey(other, owner: "b", now: now, lease: 10) == .conflict)
        #expect(try first.claimShareKey(claim, owner: "a", now: now.addingTimeInterval(ShareLedgerRules.keyLifetime + 1), lease: 10)
                == .claimed(done: ""), "a key older than its lifetime is free again")
    }

    /// A claim lives as long as its run renews it: a run that dies leaves it to the first retry
    /// after its lease, with the items it finished; a share answered with a server error
    /// releases its key, keeping what did end well.
    @Test(arguments: CredentialDriver.available)
    func aClaimBelongsToALivingRun(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        let (first, second) = (a.credentials, b.credentials)
        let now = Date()
        let claim = ShareKeyClaim(key: "key-0003", device: "phone", fingerprint: "f")
        #expect(try first.claimShareKey(claim, owner: "a", now: now, lease: 10) == .claimed(done: ""))
        try first.noteShareKeyItems(claim, owner: "a", done: "0=r1")
        // Renewed, the claim outlives its first lease and any window: a run is never taken over while alive.
        try first.renewShareKeys(owner: "a", until: now.addingTimeInterval(1_000))
        #expect(try second.claimShareKey(claim, owner: "b", now: now.addingTimeInterval(900), lease: 10) == .running)
        // Not renewed any more (the server died): the next retry takes it over, once.
        let later = now.addingTimeInterval(1_001)
        #expect(try second.claimShareKey(claim, owner: "b", now: later, lease: 10) == .claimed(done: "0=r1"))
        #expect(try first.claimShareKey(claim, owner: "c", now: later, lease: 10) == .running, "taken over once")
        // The dead run's notes change nothing now; the new owner's do.
        try first.noteShareKeyItems(claim, owner: "a", done: "0=r1,1=stale")
        try second.noteShareKeyItems(claim, owner: "b", done: "0=r1,2=r3")
        // A server error: released at once, with what ended well.
        try second.finishShareKey(claim, owner: "b", records: nil, done: "0=r1,2=r3", now: later)
        #expect(try first.claimShareKey(claim, owner: "c", now: later, lease: 10) == .claimed(done: "0=r1,2=r3"))
    }

    @Test(arguments: CredentialDriver.available)
    func aServerSecretIsTheFirstProposedUntilReplaced(_ driver: CredentialDriver) throws {
        let (a, b, cleanup) = try makeCredentialStores(driver)
        defer { cleanup() }
        #expect(try a.credentials.secret(named: FeedSecret.name, proposing: "one") == "one")
        #expect(try b.credentials.secret(named: FeedSecret.name, proposing: "two") == "one", "the first server decides")
        try b.credentials.replaceSecret(named: FeedSecret.name, with: "three")
        #expect(try a.credentials.secret(named: FeedSecret.name, proposing: "four") == "three")
        #expect(try a.credentials.shareToken(proposing: "token") == "token", "each secret is its own")
    }
}
