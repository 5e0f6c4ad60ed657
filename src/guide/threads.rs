//! # threads
