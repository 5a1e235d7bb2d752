//! The connector's integration tests against a mock Botzone, in one test binary.

mod common;
mod connect;
mod connect_faults;
