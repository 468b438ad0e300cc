//! Counters of the calls the delivery worker makes to the market (read by `/metrics`). The
//! worker's own, in a file of their own so that `Domain` can hold them without a circle of
//! imports (the worker's file needs `Domain`; this one needs nothing).
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Counters of the worker's market calls, read by `/metrics`.
#[derive(Default)]
pub struct Meter {
    enabled: AtomicBool,
    calls: [AtomicU64; 3],
    failures: [AtomicU64; 3],
}

/// A kind of market call.
#[derive(Clone, Copy, Debug)]
pub enum Call {
    Buy = 0,
    Status = 1,
    Balance = 2,
}

impl Call {
    pub const ALL: [Call; 3] = [Call::Buy, Call::Status, Call::Balance];

    pub fn name(self) -> &'static str {
        match self {
            Call::Buy => "buy",
            Call::Status => "status",
            Call::Balance => "balance",
        }
    }
}

impl Meter {
    /// The worker runs in this process: its families appear in `/metrics`.
    pub fn enable(&self) {
        self.enabled.store(true, Ordering::Relaxed);
    }

    pub fn is_enabled(&self) -> bool {
        self.enabled.load(Ordering::Relaxed)
    }

    pub fn count(&self, call: Call, ok: bool) {
        self.calls[call as usize].fetch_add(1, Ordering::Relaxed);
        if !ok {
            self.failures[call as usize].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// (calls, failures) of `call`.
    pub fn figures(&self, call: Call) -> (u64, u64) {
        (self.calls[call as usize].load(Ordering::Relaxed), self.failures[call as usize].load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meter_counts_calls_and_failures() {
        let m = Meter::default();
        m.count(Call::Buy, true);
        m.count(Call::Buy, false);
        assert_eq!(m.figures(Call::Buy), (2, 1));
        assert_eq!(m.figures(Call::Status), (0, 0));
    }
}
