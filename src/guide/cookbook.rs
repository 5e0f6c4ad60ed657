//! # cookbook
