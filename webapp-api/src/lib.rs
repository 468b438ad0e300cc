//! FragBox server library: `domain` holds every rule and all SQL; `http` translates HTTP to domain calls.
pub mod domain;
pub mod http;
