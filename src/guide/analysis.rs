//! # analysis
