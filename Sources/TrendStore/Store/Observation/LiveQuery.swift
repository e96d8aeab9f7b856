import Foundation
import Observation
import Synchronization

/// A query's live value for a SwiftUI view: an `@Observable` model whose ``value`` follows
/// ``TrendStore/observe(every:_:)`` on the main actor.
///
/// ```swift
/// struct TodayView: View {
///     @State private var today = LiveQuery(store) { try $0.todayCurve(of: "activeEnergy") }
///     var body: some View {
///         if let curve = today.value { Chart(curve) } else if let error = today.error { … }
///     }
/// }
/// ```
///
/// It observes from its creation until it is released (or its store closes: then ``error``
/// is ``StoreError/Code/closed``; make a new one on the reopened store). A suspension of
/// the store (``TrendStore/suspend()``) does not end it: ``value`` stays, and follows what
/// changed meanwhile once the store resumes.
@MainActor
@Observable
public final class LiveQuery<Value: Sendable & Equatable> {
    /// The query's latest value: `nil` until the first evaluation, and after an error.
    public private(set) var value: Value?
    /// The error that ended the observation (the store closed, a damaged value), else `nil`.
    public private(set) var error: (any Error)?
    @ObservationIgnored private let observation = ObservationTask()

    /// Starts observing `query` on `store`; polls for other processes' writes every
    /// `interval`.
    public init(
        _ store: TrendStore, every interval: Duration = .milliseconds(100),
        _ query: @escaping @Sendable (borrowing StoreSnapshot) throws -> Value
    ) {
        observation.start { [weak self] in
            do {
                for try await value in store.observe(every: interval, query) {
                    guard let self else { return }
                    self.value = value
                }
            } catch {
                self?.value = nil
                self?.error = error
            }
        }
    }
}

/// The task behind a ``LiveQuery``, cancelled when the model is released.
final class ObservationTask: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Runs `body` on the main actor until it ends or this object is released.
    func start(_ body: @escaping @MainActor @Sendable () async -> Void) {
        task.withLock { $0 = Task { @MainActor in await body() } }
    }

    deinit { task.withLock { $0?.cancel() } }
}
