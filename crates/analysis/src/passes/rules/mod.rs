//! One module per rule; each is listed once more in `super::RULES`.

pub mod access_refused;
pub mod channel_error;
pub mod connection_churn;
pub mod fdc;
pub mod mqi_failures;
pub mod qtime_growth;
pub mod resource_limit;
pub mod slow_dns;
pub mod socket_buffer_size;
pub mod tcp_send_stall;
pub mod tls_error;
pub mod tls_handshake_slow;
pub mod unreadable_input;
