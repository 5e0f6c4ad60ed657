//! # checks
