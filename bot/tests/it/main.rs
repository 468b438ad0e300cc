//! Integration tests: one binary (one link step) with a module per area.
#![allow(dead_code)]
mod common;
mod fake_bot_api;

mod abuse;
mod admin;
mod backbone;
mod bot_runtime;
mod crash;
mod economy;
mod feed;
mod hardening;
mod members;
mod money;
mod moving;
mod operator;
mod payments;
mod replicas;
mod rewards;
mod statics;
mod support;
mod writer;
