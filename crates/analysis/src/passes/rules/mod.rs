//! One module per rule, and the registry: a rule's module is declared and
//! registered by one line here, in report order.

use super::RuleInfo;

/// Declares each rule's module (`<name>.rs` or `<name>/mod.rs` beside
/// this file, with its `pub(crate) static RULE: RuleInfo`) and lists its `RULE`
/// in `RULES`, in the order given.
macro_rules! registry {
    ($($rule:ident),* $(,)?) => {
        $(pub(crate) mod $rule;)*

        /// Every rule, in report order.
        pub static RULES: &[&RuleInfo] = &[$(&$rule::RULE),*];
    };
}

registry![
    slow_dns,
    tcp_send_stall,
    socket_buffer_size,
    qtime_growth,
    tls_handshake_slow,
    connection_churn,
    channel_error,
    tls_error,
    mqi_failures,
    access_refused,
    resource_limit,
    queue_service,
    config_change,
    fdc,
    unreadable_input,
];
