//! Explanations of refusals from the queue manager's own configuration.
pub(crate) mod chlauth;
