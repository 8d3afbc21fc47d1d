//! MQ completion and reason codes: the public `MQRC_*` constants of
//! `cmqc.h` (the MQI range 2001–2600 and the C++ range 6100+), decoding of
//! the forms traces write them in, and which outcomes are normal.
//!
//! The table holds only names the authors are sure of; a code without a
//! name is still shown by number. Names are without the `MQRC_` prefix.

/// `(reason, name without MQRC_)`, sorted by reason.
static NAMES: &[(u32, &str)] = &[
    (0, "NONE"),
    (2001, "ALIAS_BASE_Q_TYPE_ERROR"),
    (2002, "ALREADY_CONNECTED"),
    (2003, "BACKED_OUT"),
    (2004, "BUFFER_ERROR"),
    (2005, "BUFFER_LENGTH_ERROR"),
    (2006, "CHAR_ATTR_LENGTH_ERROR"),
    (2007, "CHAR_ATTRS_ERROR"),
    (2008, "CHAR_ATTRS_TOO_SHORT"),
    (2009, "CONNECTION_BROKEN"),
    (2010, "DATA_LENGTH_ERROR"),
    (2011, "DYNAMIC_Q_NAME_ERROR"),
    (2012, "ENVIRONMENT_ERROR"),
    (2013, "EXPIRY_ERROR"),
    (2014, "FEEDBACK_ERROR"),
    (2016, "GET_INHIBITED"),
    (2017, "HANDLE_NOT_AVAILABLE"),
    (2018, "HCONN_ERROR"),
    (2019, "HOBJ_ERROR"),
    (2020, "INHIBIT_VALUE_ERROR"),
    (2021, "INT_ATTR_COUNT_ERROR"),
    (2022, "INT_ATTR_COUNT_TOO_SMALL"),
    (2023, "INT_ATTRS_ARRAY_ERROR"),
    (2024, "SYNCPOINT_LIMIT_REACHED"),
    (2025, "MAX_CONNS_LIMIT_REACHED"),
    (2026, "MD_ERROR"),
    (2027, "MISSING_REPLY_TO_Q"),
    (2029, "MSG_TYPE_ERROR"),
    (2030, "MSG_TOO_BIG_FOR_Q"),
    (2031, "MSG_TOO_BIG_FOR_Q_MGR"),
    (2033, "NO_MSG_AVAILABLE"),
    (2034, "NO_MSG_UNDER_CURSOR"),
    (2035, "NOT_AUTHORIZED"),
    (2036, "NOT_OPEN_FOR_BROWSE"),
    (2037, "NOT_OPEN_FOR_INPUT"),
    (2038, "NOT_OPEN_FOR_INQUIRE"),
    (2039, "NOT_OPEN_FOR_OUTPUT"),
    (2040, "NOT_OPEN_FOR_SET"),
    (2041, "OBJECT_CHANGED"),
    (2042, "OBJECT_IN_USE"),
    (2043, "OBJECT_TYPE_ERROR"),
    (2044, "OD_ERROR"),
    (2045, "OPTION_NOT_VALID_FOR_TYPE"),
    (2046, "OPTIONS_ERROR"),
    (2047, "PERSISTENCE_ERROR"),
    (2048, "PERSISTENT_NOT_ALLOWED"),
    (2049, "PRIORITY_EXCEEDS_MAXIMUM"),
    (2050, "PRIORITY_ERROR"),
    (2051, "PUT_INHIBITED"),
    (2052, "Q_DELETED"),
    (2053, "Q_FULL"),
    (2055, "Q_NOT_EMPTY"),
    (2056, "Q_SPACE_NOT_AVAILABLE"),
    (2057, "Q_TYPE_ERROR"),
    (2058, "Q_MGR_NAME_ERROR"),
    (2059, "Q_MGR_NOT_AVAILABLE"),
    (2061, "REPORT_OPTIONS_ERROR"),
    (2062, "SECOND_MARK_NOT_ALLOWED"),
    (2063, "SECURITY_ERROR"),
    (2065, "SELECTOR_COUNT_ERROR"),
    (2066, "SELECTOR_LIMIT_EXCEEDED"),
    (2067, "SELECTOR_ERROR"),
    (2068, "SELECTOR_NOT_FOR_TYPE"),
    (2069, "SIGNAL_OUTSTANDING"),
    (2070, "SIGNAL_REQUEST_ACCEPTED"),
    (2071, "STORAGE_NOT_AVAILABLE"),
    (2072, "SYNCPOINT_NOT_AVAILABLE"),
    (2075, "TRIGGER_CONTROL_ERROR"),
    (2076, "TRIGGER_DEPTH_ERROR"),
    (2077, "TRIGGER_MSG_PRIORITY_ERR"),
    (2078, "TRIGGER_TYPE_ERROR"),
    (2079, "TRUNCATED_MSG_ACCEPTED"),
    (2080, "TRUNCATED_MSG_FAILED"),
    (2082, "UNKNOWN_ALIAS_BASE_Q"),
    (2085, "UNKNOWN_OBJECT_NAME"),
    (2086, "UNKNOWN_OBJECT_Q_MGR"),
    (2087, "UNKNOWN_REMOTE_Q_MGR"),
    (2090, "WAIT_INTERVAL_ERROR"),
    (2091, "XMIT_Q_TYPE_ERROR"),
    (2092, "XMIT_Q_USAGE_ERROR"),
    (2093, "NOT_OPEN_FOR_PASS_ALL"),
    (2094, "NOT_OPEN_FOR_PASS_IDENT"),
    (2095, "NOT_OPEN_FOR_SET_ALL"),
    (2096, "NOT_OPEN_FOR_SET_IDENT"),
    (2097, "CONTEXT_HANDLE_ERROR"),
    (2098, "CONTEXT_NOT_AVAILABLE"),
    (2099, "SIGNAL1_ERROR"),
    (2100, "OBJECT_ALREADY_EXISTS"),
    (2101, "OBJECT_DAMAGED"),
    (2102, "RESOURCE_PROBLEM"),
    (2103, "ANOTHER_Q_MGR_CONNECTED"),
    (2104, "UNKNOWN_REPORT_OPTION"),
    (2105, "STORAGE_CLASS_ERROR"),
    (2106, "COD_NOT_VALID_FOR_XCF_Q"),
    (2107, "XWAIT_CANCELED"),
    (2108, "XWAIT_ERROR"),
    (2109, "SUPPRESSED_BY_EXIT"),
    (2110, "FORMAT_ERROR"),
    (2111, "SOURCE_CCSID_ERROR"),
    (2112, "SOURCE_INTEGER_ENC_ERROR"),
    (2113, "SOURCE_DECIMAL_ENC_ERROR"),
    (2114, "SOURCE_FLOAT_ENC_ERROR"),
    (2115, "TARGET_CCSID_ERROR"),
    (2116, "TARGET_INTEGER_ENC_ERROR"),
    (2117, "TARGET_DECIMAL_ENC_ERROR"),
    (2118, "TARGET_FLOAT_ENC_ERROR"),
    (2119, "NOT_CONVERTED"),
    (2120, "CONVERTED_MSG_TOO_BIG"),
    (2121, "NO_EXTERNAL_PARTICIPANTS"),
    (2122, "PARTICIPANT_NOT_AVAILABLE"),
    (2123, "OUTCOME_MIXED"),
    (2124, "OUTCOME_PENDING"),
    (2125, "BRIDGE_STARTED"),
    (2126, "BRIDGE_STOPPED"),
    (2127, "ADAPTER_STORAGE_SHORTAGE"),
    (2128, "UOW_IN_PROGRESS"),
    (2129, "ADAPTER_CONN_LOAD_ERROR"),
    (2130, "ADAPTER_SERV_LOAD_ERROR"),
    (2131, "ADAPTER_DEFS_ERROR"),
    (2132, "ADAPTER_DEFS_LOAD_ERROR"),
    (2133, "ADAPTER_CONV_LOAD_ERROR"),
    (2134, "BO_ERROR"),
    (2135, "DH_ERROR"),
    (2136, "MULTIPLE_REASONS"),
    (2137, "OPEN_FAILED"),
    (2138, "ADAPTER_DISC_LOAD_ERROR"),
    (2139, "CNO_ERROR"),
    (2140, "CICS_WAIT_FAILED"),
    (2141, "DLH_ERROR"),
    (2142, "HEADER_ERROR"),
    (2143, "SOURCE_LENGTH_ERROR"),
    (2144, "TARGET_LENGTH_ERROR"),
    (2145, "SOURCE_BUFFER_ERROR"),
    (2146, "TARGET_BUFFER_ERROR"),
    (2148, "IIH_ERROR"),
    (2149, "PCF_ERROR"),
    (2150, "DBCS_ERROR"),
    (2152, "OBJECT_NAME_ERROR"),
    (2153, "OBJECT_Q_MGR_NAME_ERROR"),
    (2154, "RECS_PRESENT_ERROR"),
    (2155, "OBJECT_RECORDS_ERROR"),
    (2156, "RESPONSE_RECORDS_ERROR"),
    (2157, "ASID_MISMATCH"),
    (2158, "PMO_RECORD_FLAGS_ERROR"),
    (2159, "PUT_MSG_RECORDS_ERROR"),
    (2160, "CONN_ID_IN_USE"),
    (2161, "Q_MGR_QUIESCING"),
    (2162, "Q_MGR_STOPPING"),
    (2163, "DUPLICATE_RECOV_COORD"),
    (2173, "PMO_ERROR"),
    (2182, "API_EXIT_NOT_FOUND"),
    (2183, "API_EXIT_LOAD_ERROR"),
    (2184, "REMOTE_Q_NAME_ERROR"),
    (2185, "INCONSISTENT_PERSISTENCE"),
    (2186, "GMO_ERROR"),
    (2187, "CICS_BRIDGE_RESTRICTION"),
    (2188, "STOPPED_BY_CLUSTER_EXIT"),
    (2189, "CLUSTER_RESOLUTION_ERROR"),
    (2190, "CONVERTED_STRING_TOO_BIG"),
    (2191, "TMC_ERROR"),
    (2192, "PAGESET_FULL"),
    (2193, "PAGESET_ERROR"),
    (2194, "NAME_NOT_VALID_FOR_TYPE"),
    (2195, "UNEXPECTED_ERROR"),
    (2196, "UNKNOWN_XMIT_Q"),
    (2197, "UNKNOWN_DEF_XMIT_Q"),
    (2198, "DEF_XMIT_Q_TYPE_ERROR"),
    (2199, "DEF_XMIT_Q_USAGE_ERROR"),
    (2201, "NAME_IN_USE"),
    (2202, "CONNECTION_QUIESCING"),
    (2203, "CONNECTION_STOPPING"),
    (2204, "ADAPTER_NOT_AVAILABLE"),
    (2206, "MSG_ID_ERROR"),
    (2207, "CORREL_ID_ERROR"),
    (2208, "FILE_SYSTEM_ERROR"),
    (2209, "NO_MSG_LOCKED"),
    (2217, "CONNECTION_NOT_AUTHORIZED"),
    (2218, "MSG_TOO_BIG_FOR_CHANNEL"),
    (2219, "CALL_IN_PROGRESS"),
    (2220, "RMH_ERROR"),
    (2222, "Q_MGR_ACTIVE"),
    (2223, "Q_MGR_NOT_ACTIVE"),
    (2224, "Q_DEPTH_HIGH"),
    (2225, "Q_DEPTH_LOW"),
    (2226, "Q_SERVICE_INTERVAL_HIGH"),
    (2227, "Q_SERVICE_INTERVAL_OK"),
    (2232, "UNIT_OF_WORK_NOT_STARTED"),
    (2233, "CHANNEL_AUTO_DEF_OK"),
    (2234, "CHANNEL_AUTO_DEF_ERROR"),
    (2235, "CFH_ERROR"),
    (2236, "CFIL_ERROR"),
    (2237, "CFIN_ERROR"),
    (2238, "CFSL_ERROR"),
    (2239, "CFST_ERROR"),
    (2241, "INCOMPLETE_GROUP"),
    (2242, "INCOMPLETE_MSG"),
    (2243, "INCONSISTENT_CCSIDS"),
    (2244, "INCONSISTENT_ENCODINGS"),
    (2245, "INCONSISTENT_UOW"),
    (2246, "INVALID_MSG_UNDER_CURSOR"),
    (2247, "MATCH_OPTIONS_ERROR"),
    (2248, "MDE_ERROR"),
    (2249, "MSG_FLAGS_ERROR"),
    (2250, "MSG_SEQ_NUMBER_ERROR"),
    (2251, "OFFSET_ERROR"),
    (2252, "ORIGINAL_LENGTH_ERROR"),
    (2253, "SEGMENT_LENGTH_ZERO"),
    (2255, "UOW_NOT_AVAILABLE"),
    (2256, "WRONG_GMO_VERSION"),
    (2257, "WRONG_MD_VERSION"),
    (2258, "GROUP_ID_ERROR"),
    (2259, "INCONSISTENT_BROWSE"),
    (2260, "XQH_ERROR"),
    (2261, "SRC_ENV_ERROR"),
    (2262, "SRC_NAME_ERROR"),
    (2263, "DEST_ENV_ERROR"),
    (2264, "DEST_NAME_ERROR"),
    (2265, "TM_ERROR"),
    (2266, "CLUSTER_EXIT_ERROR"),
    (2267, "CLUSTER_EXIT_LOAD_ERROR"),
    (2268, "CLUSTER_PUT_INHIBITED"),
    (2269, "CLUSTER_RESOURCE_ERROR"),
    (2270, "NO_DESTINATIONS_AVAILABLE"),
    (2271, "CONN_TAG_IN_USE"),
    (2272, "PARTIALLY_CONVERTED"),
    (2273, "CONNECTION_ERROR"),
    (2274, "OPTION_ENVIRONMENT_ERROR"),
    (2277, "CD_ERROR"),
    (2278, "CLIENT_CONN_ERROR"),
    (2279, "CHANNEL_STOPPED_BY_USER"),
    (2280, "HCONFIG_ERROR"),
    (2281, "FUNCTION_ERROR"),
    (2282, "CHANNEL_STARTED"),
    (2283, "CHANNEL_STOPPED"),
    (2284, "CHANNEL_CONV_ERROR"),
    (2285, "SERVICE_NOT_AVAILABLE"),
    (2286, "INITIALIZATION_FAILED"),
    (2287, "TERMINATION_FAILED"),
    (2288, "UNKNOWN_Q_NAME"),
    (2289, "SERVICE_ERROR"),
    (2290, "Q_ALREADY_EXISTS"),
    (2291, "USER_ID_NOT_AVAILABLE"),
    (2292, "UNKNOWN_ENTITY"),
    (2294, "UNKNOWN_REF_OBJECT"),
    (2295, "CHANNEL_ACTIVATED"),
    (2296, "CHANNEL_NOT_ACTIVATED"),
    (2297, "UOW_CANCELED"),
    (2298, "FUNCTION_NOT_SUPPORTED"),
    (2299, "SELECTOR_TYPE_ERROR"),
    (2300, "COMMAND_TYPE_ERROR"),
    (2381, "KEY_REPOSITORY_ERROR"),
    (2382, "CRYPTO_HARDWARE_ERROR"),
    (2392, "SSL_CONFIG_ERROR"),
    (2393, "SSL_INITIALIZATION_ERROR"),
    (2396, "SSL_NOT_ALLOWED"),
    (2397, "JSSE_ERROR"),
    (2398, "SSL_PEER_NAME_MISMATCH"),
    (2399, "SSL_PEER_NAME_ERROR"),
    (2400, "UNSUPPORTED_CIPHER_SUITE"),
    (2401, "SSL_CERTIFICATE_REVOKED"),
    (2402, "SSL_CERT_STORE_ERROR"),
    (2406, "CLIENT_EXIT_LOAD_ERROR"),
    (2407, "CLIENT_EXIT_ERROR"),
    (2409, "SSL_KEY_RESET_ERROR"),
    (2423, "CLIENT_CHANNEL_CONFLICT"),
    (2424, "SD_ERROR"),
    (2425, "TOPIC_STRING_ERROR"),
    (2426, "STS_ERROR"),
    (2428, "NO_SUBSCRIPTION"),
    (2429, "SUBSCRIPTION_IN_USE"),
    (2430, "STAT_TYPE_ERROR"),
    (2431, "SUB_USER_DATA_ERROR"),
    (2432, "SUB_ALREADY_EXISTS"),
    (2434, "IDENTITY_MISMATCH"),
    (2435, "ALTER_SUB_ERROR"),
    (2436, "DURABILITY_NOT_ALLOWED"),
    (2437, "NO_RETAINED_MSG"),
    (2438, "SRO_ERROR"),
    (2440, "SUB_NAME_ERROR"),
    (2441, "OBJECT_STRING_ERROR"),
    (2442, "PROPERTY_NAME_ERROR"),
    (2443, "SEGMENTATION_NOT_ALLOWED"),
    (2444, "CBD_ERROR"),
    (2445, "CTLO_ERROR"),
    (2446, "NO_CALLBACKS_ACTIVE"),
    (2448, "CALLBACK_NOT_REGISTERED"),
    (2457, "OPTIONS_CHANGED"),
    (2458, "READ_AHEAD_MSGS"),
    (2459, "SELECTOR_SYNTAX_ERROR"),
    (2460, "HMSG_ERROR"),
    (2461, "CMHO_ERROR"),
    (2462, "DMHO_ERROR"),
    (2463, "SMPO_ERROR"),
    (2464, "IMPO_ERROR"),
    (2471, "PROPERTY_NOT_AVAILABLE"),
    (2485, "MAX_MSG_LENGTH_ERROR"),
    (2495, "MODULE_NOT_FOUND"),
    (2496, "MODULE_INVALID"),
    (2497, "MODULE_ENTRY_NOT_FOUND"),
    (2500, "HCONN_ASYNC_ACTIVE"),
    (2537, "CHANNEL_NOT_AVAILABLE"),
    (2538, "HOST_NOT_AVAILABLE"),
    (2539, "CHANNEL_CONFIG_ERROR"),
    (2540, "UNKNOWN_CHANNEL_NAME"),
    (2541, "LOOPING_PUBLICATION"),
    (2542, "ALREADY_JOINED"),
    (2543, "STANDBY_Q_MGR"),
    (2544, "RECONNECTING"),
    (2545, "RECONNECTED"),
    (2546, "RECONNECT_QMID_MISMATCH"),
    (2547, "RECONNECT_INCOMPATIBLE"),
    (2548, "RECONNECT_FAILED"),
    (2549, "CALL_INTERRUPTED"),
    (2550, "NO_SUBS_MATCHED"),
    (2551, "SELECTION_NOT_AVAILABLE"),
    (2552, "CHANNEL_SSL_WARNING"),
    (2553, "OCSP_URL_ERROR"),
    (2554, "CONTENT_ERROR"),
    (2555, "RECONNECT_Q_MGR_REQD"),
    (2556, "RECONNECT_TIMED_OUT"),
    (2557, "PUBLISH_EXIT_ERROR"),
    (2558, "COMMINFO_ERROR"),
    (2559, "DEF_SYNCPOINT_INHIBITED"),
    (2560, "MULTICAST_ONLY"),
    (2561, "DATA_SET_NOT_AVAILABLE"),
    (2562, "GROUPING_NOT_ALLOWED"),
    (2563, "GROUP_ADDRESS_ERROR"),
    (2564, "MULTICAST_CONFIG_ERROR"),
    (2565, "MULTICAST_INTERFACE_ERROR"),
    (2566, "MULTICAST_SEND_ERROR"),
    (2567, "MULTICAST_INTERNAL_ERROR"),
    (2568, "CONNECTION_NOT_AVAILABLE"),
    (2569, "SYNCPOINT_NOT_ALLOWED"),
    (2570, "SSL_ALT_PROVIDER_REQUIRED"),
    (2571, "MCAST_PUB_STATUS"),
    (2572, "MCAST_SUB_STATUS"),
    (2573, "PRECONN_EXIT_LOAD_ERROR"),
    (2574, "PRECONN_EXIT_NOT_FOUND"),
    (2575, "PRECONN_EXIT_ERROR"),
    (2576, "CD_ARRAY_ERROR"),
    (2577, "CHANNEL_BLOCKED"),
    (2578, "CHANNEL_BLOCKED_WARNING"),
    (2579, "SUBSCRIPTION_CREATE"),
    (2580, "SUBSCRIPTION_DELETE"),
    (2581, "SUBSCRIPTION_CHANGE"),
    (2582, "SUBSCRIPTION_REFRESH"),
    (2583, "INSTALLATION_MISMATCH"),
    (2584, "NOT_PRIVILEGED"),
    (2586, "PROPERTIES_DISABLED"),
    (2587, "HMSG_NOT_AVAILABLE"),
    (2588, "EXIT_PROPS_NOT_SUPPORTED"),
    (2589, "INSTALLATION_MISSING"),
    (2590, "FASTPATH_NOT_AVAILABLE"),
    (2591, "CIPHER_SPEC_NOT_SUITE_B"),
    (2592, "SUITE_B_ERROR"),
    (2593, "CERT_VAL_POLICY_ERROR"),
    (2594, "PASSWORD_PROTECTION_ERROR"),
    (2595, "CSP_ERROR"),
    (2596, "CERT_LABEL_NOT_ALLOWED"),
    (2598, "ADMIN_TOPIC_STRING_ERROR"),
    (2599, "AMQP_NOT_AVAILABLE"),
    (2600, "CCDT_URL_ERROR"),
    (6100, "REOPEN_EXCL_INPUT_ERROR"),
    (6101, "REOPEN_INQUIRE_ERROR"),
    (6102, "REOPEN_SAVED_CONTEXT_ERR"),
    (6103, "REOPEN_TEMPORARY_Q_ERROR"),
    (6104, "ATTRIBUTE_LOCKED"),
    (6105, "CURSOR_NOT_VALID"),
    (6106, "ENCODING_ERROR"),
    (6107, "STRUC_ID_ERROR"),
    (6108, "NULL_POINTER"),
    (6109, "NO_CONNECTION_REFERENCE"),
    (6110, "NO_BUFFER"),
    (6111, "BINARY_DATA_LENGTH_ERROR"),
    (6112, "BUFFER_NOT_AUTOMATIC"),
    (6113, "INSUFFICIENT_BUFFER"),
    (6114, "INSUFFICIENT_DATA"),
    (6115, "DATA_TRUNCATED"),
    (6116, "ZERO_LENGTH"),
    (6117, "NEGATIVE_LENGTH"),
    (6118, "NEGATIVE_OFFSET"),
    (6119, "INCONSISTENT_FORMAT"),
    (6120, "INCONSISTENT_OBJECT_STATE"),
    (6121, "CONTEXT_OBJECT_NOT_VALID"),
    (6122, "CONTEXT_OPEN_ERROR"),
    (6123, "STRUC_LENGTH_ERROR"),
    (6124, "NOT_CONNECTED"),
    (6125, "NOT_OPEN"),
    (6126, "DISTRIBUTION_LIST_EMPTY"),
    (6127, "INCONSISTENT_OPEN_OPTIONS"),
    (6128, "WRONG_VERSION"),
    (6129, "REFERENCE_ERROR"),
];

/// The `MQRC_` name of a reason code, when the table knows it.
pub fn name(reason: u32) -> Option<String> {
    NAMES
        .binary_search_by_key(&reason, |(r, _)| *r)
        .ok()
        .map(|i| format!("MQRC_{}", NAMES[i].1))
}

/// The code of an `MQRC_` name (with or without the prefix).
pub fn code(name: &str) -> Option<u32> {
    let n = name.strip_prefix("MQRC_").unwrap_or(name);
    NAMES.iter().find(|(_, m)| *m == n).map(|(r, _)| *r)
}

/// What a trace says a call returned, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// `rc=OK` or reason 0.
    Ok,
    /// An MQ reason code.
    Reason(u32),
    /// A return code that is not an MQ reason (`xecE_...`, `Unknown(B)`
    /// with no MQRC meaning), kept as written.
    Other(String),
}

/// Decode an exit's `rc=` value as traces write it: `OK`, `MQRC_NAME`,
/// decimal `2033`, hexadecimal `0x7F1`, 8-digit `000007F1`, or
/// `Unknown(7F1)` (the tracer's hexadecimal fallback; only read as a reason
/// when it falls in a reason-code range, since the same form carries errno
/// values such as `Unknown(B)`).
pub fn decode_rc(rc: &str) -> Outcome {
    let rc = rc.trim();
    if rc.eq_ignore_ascii_case("OK") || rc == "0" {
        return Outcome::Ok;
    }
    if rc.starts_with("MQRC_") {
        return match code(rc) {
            Some(0) => Outcome::Ok,
            Some(r) => Outcome::Reason(r),
            None => Outcome::Other(rc.to_string()),
        };
    }
    // Eight digits are the tracer's hexadecimal form even when no letter
    // shows (`00000805` is 2053, not 805).
    let hex8 = rc.len() == 8 && rc.bytes().all(|b| b.is_ascii_hexdigit());
    if !hex8 && let Ok(n) = rc.parse::<u32>() {
        return Outcome::Reason(n);
    }
    let hex = rc
        .strip_prefix("0x")
        .or_else(|| rc.strip_prefix("0X"))
        .or_else(|| (rc.len() == 8).then_some(rc))
        .or_else(|| {
            rc.strip_prefix("Unknown(")
                .and_then(|r| r.strip_suffix(')'))
        });
    if let Some(h) = hex
        && let Ok(n) = u32::from_str_radix(h, 16)
    {
        if n == 0 {
            return Outcome::Ok;
        }
        if is_reason_range(n) {
            return Outcome::Reason(n);
        }
    }
    Outcome::Other(rc.to_string())
}

/// Whether a number lies where MQ reason codes live (MQI and C++ ranges).
fn is_reason_range(n: u32) -> bool {
    (2001..=2999).contains(&n) || (6100..=6199).contains(&n)
}

/// How an outcome counts in the call summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Ok,
    /// A normal outcome for this verb (or MQCC_WARNING): not a failure.
    Warning,
    Failed,
}

/// Classify one call's outcome. Normal outcomes counted as warnings:
///
/// * 2033 NO_MSG_AVAILABLE and 2034 NO_MSG_UNDER_CURSOR on MQGET: an empty
///   queue at the end of a wait or a browse is how MQGET loops end.
/// * 2079 TRUNCATED_MSG_ACCEPTED on MQGET: MQCC_WARNING by definition.
/// * 2080 TRUNCATED_MSG_FAILED on MQGET: the usual first half of "get with
///   a small buffer, learn the length, get again" (the message stays on
///   the queue); a real problem shows as a failure of the second get.
/// * 2002 ALREADY_CONNECTED on MQCONN/MQCONNX: MQCC_WARNING, the existing
///   handle is returned.
/// * 2544/2545 RECONNECTING/RECONNECTED and 2104 UNKNOWN_REPORT_OPTION:
///   warnings by definition in the MQI.
///
/// Every other reason, and any return code that is not OK, is a failure.
pub fn classify(verb: &str, outcome: &Outcome) -> Class {
    match outcome {
        Outcome::Ok => Class::Ok,
        Outcome::Other(_) => Class::Failed,
        Outcome::Reason(r) => match (verb, *r) {
            ("MQGET", 2033 | 2034 | 2079 | 2080) => Class::Warning,
            ("MQCONN" | "MQCONNX", 2002) => Class::Warning,
            (_, 2104 | 2544 | 2545) => Class::Warning,
            _ => Class::Failed,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_unique() {
        for w in NAMES.windows(2) {
            assert!(w[0].0 < w[1].0, "{:?} then {:?}", w[0], w[1]);
        }
        let mut names: Vec<&str> = NAMES.iter().map(|(_, n)| *n).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), NAMES.len());
    }

    #[test]
    fn names_and_codes() {
        assert_eq!(name(2035).as_deref(), Some("MQRC_NOT_AUTHORIZED"));
        assert_eq!(name(2033).as_deref(), Some("MQRC_NO_MSG_AVAILABLE"));
        assert_eq!(name(2538).as_deref(), Some("MQRC_HOST_NOT_AVAILABLE"));
        assert_eq!(name(2393).as_deref(), Some("MQRC_SSL_INITIALIZATION_ERROR"));
        assert_eq!(name(6124).as_deref(), Some("MQRC_NOT_CONNECTED"));
        assert_eq!(name(2015), None);
        assert_eq!(code("MQRC_CONNECTION_BROKEN"), Some(2009));
        assert_eq!(code("Q_MGR_NOT_AVAILABLE"), Some(2059));
    }

    #[test]
    fn rc_forms() {
        assert_eq!(decode_rc("OK"), Outcome::Ok);
        assert_eq!(decode_rc("MQRC_NONE"), Outcome::Ok);
        assert_eq!(decode_rc("MQRC_NOT_AUTHORIZED"), Outcome::Reason(2035));
        assert_eq!(decode_rc("2033"), Outcome::Reason(2033));
        assert_eq!(decode_rc("0x7F3"), Outcome::Reason(2035));
        assert_eq!(decode_rc("000007F1"), Outcome::Reason(2033));
        assert_eq!(decode_rc("00000805"), Outcome::Reason(2053));
        assert_eq!(decode_rc("00000000"), Outcome::Ok);
        assert_eq!(decode_rc("Unknown(7F3)"), Outcome::Reason(2035));
        // errno 11 in the same fallback form is not a reason code.
        assert_eq!(decode_rc("Unknown(B)"), Outcome::Other("Unknown(B)".into()));
        assert_eq!(
            decode_rc("xecE_E_ENV_VAR_NOT_FOUND"),
            Outcome::Other("xecE_E_ENV_VAR_NOT_FOUND".into())
        );
    }

    #[test]
    fn normal_outcomes_are_warnings() {
        assert_eq!(classify("MQGET", &Outcome::Reason(2033)), Class::Warning);
        assert_eq!(classify("MQPUT", &Outcome::Reason(2033)), Class::Failed);
        assert_eq!(classify("MQCONNX", &Outcome::Reason(2035)), Class::Failed);
        assert_eq!(classify("MQCONNX", &Outcome::Reason(2002)), Class::Warning);
        assert_eq!(classify("MQGET", &Outcome::Ok), Class::Ok);
    }
}
