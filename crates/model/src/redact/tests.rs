use super::*;

fn learnt(pairs: &[(Cat, &str)]) -> Redactor {
    let mut r = Redactor::new();
    for (c, v) in pairs {
        r.add(*c, v);
    }
    r
}

/// MQ's own advice names queue-manager attributes after `QMGR`:
/// `CHLAUTH` is not a queue manager to hide.
#[test]
fn mqsc_attributes_after_qmgr_are_not_names() {
    let mut r = Redactor::new();
    r.learn_text(
        "configured. The ALTER QMGR CHLAUTH switch is used to control whether \
         channel authentication records are used; DISPLAY QMGR CONNAUTH shows it.",
    );
    let out = r.apply("CHLAUTH blocked by USERSRC(NOACCESS), DISPLAY QMGR CONNAUTH");
    assert_eq!(
        out,
        "CHLAUTH blocked by USERSRC(NOACCESS), DISPLAY QMGR CONNAUTH"
    );
    // A real name after `queue manager` is still learnt.
    r.learn_text("queue manager QMPAY is running");
    assert_eq!(r.apply("QMPAY"), "qmgr-1");
}

#[test]
fn stable_tokens_per_value() {
    let r = learnt(&[
        (Cat::Host, "qm2host (10.0.0.2)(1414)"),
        (Cat::Host, "LOCALHOST"),
        (Cat::User, "colinpaice"),
        (Cat::Qmgr, "QM1"),
    ]);
    let a = r.apply("Remote host 'qm2host (10.0.0.2)' user colinpaice on QM1");
    assert_eq!(a, "Remote host 'host-1 (ip-1)' user user-1 on qmgr-1");
    let b = r.apply("again 10.0.0.2 and QM1, localhost; 10.0.0.3");
    assert_eq!(b, "again ip-1 and qmgr-1, host-2; ip-2");
    assert_eq!(
        r.apply("qmgrs/QM1/errors/AMQERR01.LOG"),
        "qmgrs/qmgr-1/errors/AMQERR01.LOG"
    );
    // Only whole names, or whole parts of an object name.
    assert_eq!(r.apply("QM12 XQM1 QM1_B"), "QM12 XQM1 qmgr-1_B");
    let mut r = Redactor::new();
    r.learn_path("case.zip!var/mqm/qmgrs/QMPATH/errors/AMQERR01.LOG");
    r.learn_path(r"C:\ProgramData\IBM\MQ\Qmgrs\QMWIN\errors\AMQERR01.LOG");
    assert_eq!(r.apply("/qmgrs/QMPATH/ QMWIN"), "/qmgrs/qmgr-1/ qmgr-2");
}

#[test]
fn times_versions_and_dotted_names() {
    let r = learnt(&[
        (Cat::Host, "dynamo"),
        (Cat::Qmgr, "QM2"),
        (Cat::Qmgr, "QM3"),
    ]);
    assert_eq!(r.apply("12:06:32.904335 dynamo"), "12:06:32.904335 host-1");
    // A domain name of a known host is that host.
    assert_eq!(r.apply("dynamo.example.com"), "host-1");
    assert_eq!(r.apply("dynamo.example.com."), "host-1.");
    // Queue managers named in a channel name are replaced there.
    assert_eq!(
        r.apply("channel 'QM2.TO.QM3'"),
        "channel 'qmgr-1.TO.qmgr-2'"
    );
    assert_eq!(r.apply("APP.TO.QM2X"), "APP.TO.QM2X");
    assert_eq!(r.apply("Host(dynamo)."), "Host(host-1).");
    assert_eq!(
        r.apply("std::string Version : 9.0.0.0 VRMF(9.3.0.15)"),
        "std::string Version : 9.0.0.0 VRMF(9.3.0.15)"
    );
    // Only a level right after its word, in the V.R.M.F shape, is kept.
    assert_eq!(
        r.apply("level of the peer at 198.51.100.23 version"),
        "level of the peer at ip-1 version"
    );
    assert_eq!(r.apply("version 10.66.55.44"), "version ip-2");
    assert_eq!(r.apply("peer fe80::1 and ::1"), "peer ip-3 and ip-4");
}

#[test]
fn address_forms() {
    let r = Redactor::new();
    assert_eq!(r.apply("198.51.100.23:1414"), "ip-1:1414");
    assert_eq!(r.apply("(198.51.100.23)(1414)"), "(ip-1)(1414)");
    // Leading zeros are the same address.
    assert_eq!(r.apply("010.009.009.010 10.9.9.10"), "ip-2 ip-2");
    assert_eq!(r.apply("::ffff:10.66.55.44"), "ip-3");
    assert_eq!(r.apply("[2001:db8::7]:1414"), "[ip-4]:1414");
    assert_eq!(r.apply("end at 10.1.2.3."), "end at ip-5.");
    // Not addresses: longer dotted numbers, out of range, in words.
    assert_eq!(
        r.apply("1.3.6.1.4.1 300.1.1.1 v1.2.3.4"),
        "1.3.6.1.4.1 300.1.1.1 v1.2.3.4"
    );
}

#[test]
fn secrets_dns_and_chlauth() {
    let r = Redactor::new();
    assert_eq!(
        r.apply("MQ_ADMIN_PASSWORD=s3cr3t pass"),
        "MQ_ADMIN_PASSWORD=secret-1"
    );
    assert_eq!(r.apply("  API_TOKEN : 'a b'"), "  API_TOKEN : 'secret-2'");
    assert_eq!(r.apply("MQ_APP_KEY=\"x\""), "MQ_APP_KEY=\"secret-3\"");
    assert_eq!(
        r.apply("SSLPEER('CN=John Smith,OU=Pay') from CN=Ann Lee, OU=Ops, C=GB"),
        "SSLPEER('dn-1') from CN=dn-2, OU=dn-3, C=dn-4"
    );
    assert_eq!(
        r.apply("SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESSMAP('10.20.*') USERSRC(MAP) MCAUSER('appuser')"),
        "SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESSMAP('addr-1') USERSRC(MAP) MCAUSER('user-1')"
    );
    // Return codes are not DN values.
    assert_eq!(r.apply("RC=2035 CompCode=2"), "RC=2035 CompCode=2");
}

#[test]
fn names_learnt_from_text_and_attributes() {
    let mut r = Redactor::new();
    r.learn_text("AMQ8077W: Entity 'bob7' has insufficient authority; user ID 'alice9'");
    r.learn_text(
        "queue manager QMPROD1 started; queue manager 'QMX'. Host 'h1.example.com (10.1.1.1)'",
    );
    r.learn_text("the queue manager is ending");
    assert_eq!(
        r.apply("alice9 on QMPROD1 and qmx from h1 / h1.example.com"),
        "user-1 on qmgr-1 and qmgr-2 from host-1 / host-1"
    );
    // Plain words after the phrases are not learnt as names.
    r.learn_text("User ID is not authorized; USER ID 'x1'");
    assert_eq!(r.apply("is ending ID"), "is ending ID");
}

#[test]
fn less_common_forms() {
    let mut r = Redactor::new();
    let lines = [
        "Detail: ADDRESSMAP 10.77.6.*",
        "to amqp://bob:pw1@broker7.example.net:5672/vh",
        "CONNAME('h1x(1414),h2x(1415)')",
        "CN=Smith\\, John,OU=Pay, CN=\"Lee, Ann\",O=Org,E=a@b.org,SERIALNUMBER=0A:1B",
        "Password(pw2) pwd=pw3",
        "passphrase=pw4",
        "User: carol hostname web-0 host name: dbhost",
    ];
    for l in lines {
        r.learn_text(l);
        r.assign(l);
    }
    let out: Vec<String> = lines.iter().map(|l| r.apply(l)).collect();
    assert_eq!(
        out,
        [
            "Detail: ADDRESSMAP addr-1",
            "to amqp://user-1:secret-1@host-1:5672/vh",
            "CONNAME('host-2(1414),host-3(1415)')",
            "CN=dn-1,OU=dn-2, CN=\"dn-3\",O=dn-4,E=dn-5,SERIALNUMBER=dn-6",
            "Password(secret-2) pwd=secret-3",
            "passphrase=secret-4",
            "User: user-2 hostname host-4 host name: host-5",
        ]
    );
    // Prose and IBM's web pages are left alone.
    assert_eq!(
        r.apply("blocked by an ADDRESSMAP rule, see https://www.ibm.com/docs"),
        "blocked by an ADDRESSMAP rule, see https://www.ibm.com/docs"
    );
    // Levels after `:-` or an aligned column are not addresses.
    assert_eq!(
        r.apply("LVLS :- 9.3.0.15 Version:        9.4.0.7"),
        "LVLS :- 9.3.0.15 Version:        9.4.0.7"
    );
}

#[test]
fn mangled_directories_and_fqdns_of_other_names() {
    let mut r = Redactor::new();
    r.learn_path("case.zip!var/mqm/qmgrs/QM!A1/errors/AMQERR01.LOG");
    r.learn_path("case.zip!qmgrs/QMZ/errors/AMQERR01.LOG");
    assert_eq!(
        r.apply("case.zip!var/mqm/qmgrs/QM!A1/errors QM.A1 case.zip!qmgrs/QMZ/x"),
        "case.zip!var/mqm/qmgrs/qmgr-1/errors qmgr-1 case.zip!qmgrs/qmgr-2/x"
    );
    // A queue manager named after its host: one token for both names.
    let mut r = Redactor::new();
    r.add(Cat::Qmgr, "mqprod1");
    r.add(Cat::Host, "mqprod1.example.com");
    assert_eq!(r.apply("mqprod1 mqprod1.example.com"), "qmgr-1 qmgr-1");
}

#[test]
fn object_names_only_when_asked() {
    let mut r = Redactor::new();
    r.learn_text("channel 'QM2.TO.QM3' queue 'APP.Q'");
    assert_eq!(r.apply("QM2.TO.QM3 APP.Q"), "QM2.TO.QM3 APP.Q");
    let mut r = Redactor::new().with_object_names(true);
    r.learn_text("channel 'QM2.TO.QM3' queue 'APP.Q'");
    assert_eq!(r.apply("QM2.TO.QM3 APP.Q"), "chl-1 queue-1");
}

#[test]
fn a_saved_map_keeps_its_tokens_and_numbers_after_them() {
    let mut r = Redactor::new();
    r.add(Cat::Qmgr, "QMA");
    r.add(Cat::Host, "alpha.example.com");
    r.assign("at 10.1.2.3");
    let saved = r.map_json();
    let mut again = Redactor::new();
    again.load_map(&saved).unwrap();
    again.add(Cat::Qmgr, "QMB");
    assert_eq!(
        again.apply("QMB QMA alpha 10.1.2.3 alpha.example.com"),
        "qmgr-2 qmgr-1 host-1 ip-1 host-1"
    );
    let err = |text: &str| Redactor::new().load_map(text).unwrap_err().to_string();
    assert_eq!(
        err("{\"tokens\":[{\"category\":\"x\",\"value\":\"a\",\"token\":\"x-1\"}]}"),
        "unknown category `x`"
    );
    assert_eq!(
        err("{\"tokens\":[{\"category\":\"host\",\"value\":\"a\",\"token\":\"ip-1\"}]}"),
        "`ip-1` is not a host token"
    );
    assert_eq!(err("["), "EOF while parsing a list at line 1 column 1");
}

#[test]
fn many_names_scan_and_a_budget_fails() {
    let mut r = Redactor::new();
    for i in 0..20_000 {
        r.add(Cat::Host, &format!("srv{i}.corp.example"));
    }
    assert!(r.check().is_ok());
    let out = r.apply("from srv19999.corp.example and srv5");
    assert!(!out.contains("srv"), "{out}");
    let mut small = Redactor::with_budget(10);
    for i in 0..20 {
        small.add(Cat::User, &format!("user{i}x"));
    }
    assert_eq!(
        small.check().unwrap_err().to_string(),
        "--redact: more than 10 distinct names or 128 MB of them to replace; \
         refusing to write output that could leak names"
    );
}

/// The budget counts a value once (a learnt name and its token are one
/// value): 7/10 of the budget learnt, saved and loaded again fits; one
/// past it is refused while the map is read, from a reader.
#[test]
fn a_map_within_the_budget_loads_and_one_past_it_is_refused() {
    const CAP: usize = 1_000; // as `MAX_NAMES`, scaled down
    let map_of = |n: usize| {
        let mut r = Redactor::with_budget(usize::MAX);
        for i in 0..n {
            r.add(Cat::User, &format!("u{i}"));
        }
        r.map_json()
    };
    let mut r = Redactor::with_budget(CAP);
    for i in 0..CAP * 7 / 10 {
        r.add(Cat::User, &format!("u{i}"));
    }
    assert!(r.check().is_ok(), "7/10 of the budget is refused");
    let mut r = Redactor::with_budget(CAP);
    r.load_map_from(map_of(CAP * 7 / 10).as_bytes()).unwrap();
    assert_eq!(r.apply("u0 u699 u700"), "user-1 user-700 u700");
    assert!(r.check().is_ok());
    let mut r = Redactor::with_budget(CAP);
    r.load_map_from(map_of(CAP).as_bytes()).unwrap();
    let err = Redactor::with_budget(CAP)
        .load_map_from(map_of(CAP + 1).as_bytes())
        .unwrap_err();
    assert!(matches!(err, MapError::TooLarge { .. }), "{err}");
    assert!(
        err.to_string().starts_with("more than 1000 values"),
        "{err}"
    );
}

/// z/OS forms of a subsystem and system name: the command prefix, the
/// address spaces named after the subsystem, a console log named after
/// its system; the file keeps its own name beside the token.
#[test]
fn zos_names_in_command_prefixes_jobs_and_file_names() {
    let r = learnt(&[(Cat::Qmgr, "MQ1A"), (Cat::Host, "SYSA")]);
    assert_eq!(
        r.apply("CSQX209E %MQ1A CSQXRESP Connection unexpectedly terminated"),
        "CSQX209E %qmgr-1 CSQXRESP Connection unexpectedly terminated"
    );
    assert_eq!(r.apply("START MQ1ACHIN"), "START qmgr-1CHIN");
    assert_eq!(r.apply("job MQ1AMSTR"), "job qmgr-1MSTR");
    assert_eq!(
        r.apply("zos/MQ1ACHIN.JESMSGLG.txt"),
        "zos/qmgr-1CHIN.JESMSGLG.txt"
    );
    // Two files of one system stay two files.
    assert_eq!(r.apply("logs/SYSA.yyddd.txt"), "logs/host-1.yyddd.txt");
    assert_eq!(r.apply("logs/SYSA.yyyyddd.txt"), "logs/host-1.yyyyddd.txt");
    // Words that merely end like a job are left alone.
    assert_eq!(r.apply("MACHIN CHIN MSTR"), "MACHIN CHIN MSTR");
}

#[test]
fn v4_keys_are_display_s() {
    for ip in [
        [0, 0, 0, 0],
        [10, 9, 99, 100],
        [255, 1, 20, 199],
        [1, 2, 3, 4],
    ] {
        let ip = std::net::Ipv4Addr::from(ip);
        assert_eq!(super::v4_key(ip), ip.to_string());
    }
}

/// The quad scan finds what the regex finds (ASCII text: the scan;
/// other text: the regex itself), a value to pass and one to reject each.
#[test]
fn quads_are_the_regexs_matches() {
    let texts = [
        "host 'a.example.com (10.0.0.1)' port 1414",
        "1234.5.6.7",      // starts inside the run: 234.5.6.7
        "1.2.3.4.5.6.7.8", // two quads
        "9.3.0.15 and 10.20.30.400 and 1.2.3",
        "a.1.2.3.4b 12.34.56.7890",
        "1..2.3.4 ...1.2.3.4... 0001.2.3.4",
        "no address here.",
        "",
        "CH.0000000 03/12/24 00:00:00",
        "é1.2.3.4 ١.1.2.3.4", // not ASCII: the regex
    ];
    for t in texts {
        let want: Vec<(usize, usize)> = IPV4.find_iter(t).map(|m| (m.start(), m.end())).collect();
        assert_eq!(quads(t).collect::<Vec<_>>(), want, "{t}");
    }
    assert_eq!(quads("x 10.0.0.1 y").collect::<Vec<_>>(), [(2, 10)]);
    assert_eq!(quads("1.2.3 v9.4").count(), 0);
}

/// The prefilters that decide whether the address patterns run.
#[test]
fn address_prefilters() {
    assert!(has_dotted_digits("at 10.0.0.1"));
    assert!(has_dotted_digits("1.2"));
    assert!(!has_dotted_digits("CH.0000000 ends. 3."));
    assert!(!has_dotted_digits(".5 and 5."));
    assert!(may_hold_v6("fe80::1"));
    assert!(may_hold_v6("1:2:3:4:5:6:7:8"));
    assert!(!may_hold_v6("12:06:32 a:b:c"));
    assert!(!may_hold_v6(":x:"));
}

/// A level keeps its shape only after a word that names one.
#[test]
fn mq_levels_are_told_from_addresses() {
    let lvl = |s: &str| {
        let (a, b) = quads(s).next().expect("a quad");
        is_mq_level(s, a, &s[a..b])
    };
    assert!(lvl("VRMF(9.3.0.15)"));
    assert!(lvl("Version:      9.4.0.0"));
    assert!(lvl("LVLS :- 9.3.0.15"));
    assert!(lvl("MQ LEVEL 9.1.0.0"));
    assert!(!lvl("host 9.3.0.15"));
    assert!(!lvl("Version: 10.3.0.15"));
    assert!(!lvl("Version: 0.3.0.15"));
    assert!(!lvl("versión 9.3.0.1"));
}

/// `parse_v4` reads each octet as `u8`'s `parse` does (its hand-written
/// form must not differ on any input).
#[test]
fn parse_v4_agrees_with_std_octets() {
    let std_v4 = |s: &str| -> Option<Ipv4Addr> {
        let mut o = [0u8; 4];
        let mut n = 0;
        for p in s.split('.') {
            if n == 4 {
                return None;
            }
            o[n] = p.parse::<u8>().ok()?;
            n += 1;
        }
        (n == 4).then(|| Ipv4Addr::from(o))
    };
    let parts = [
        "", "0", "00", "007", "1", "+1", "+", "++1", "-1", "255", "256", "0255", "999", "1a", " 1",
        "١",
    ];
    for a in parts {
        for b in ["1", a] {
            for s in [
                format!("{a}.{b}.2.3"),
                format!("1.2.{b}.{a}"),
                format!("{a}.{a}.{a}.{a}"),
                format!("1.2.3.{a}.4"),
                format!("1.2.{a}"),
            ] {
                assert_eq!(parse_v4(&s), std_v4(&s), "{s:?}");
            }
        }
    }
}

#[test]
fn hints_are_every_word_an_overlapping_search_finds() {
    // The oracle: the automaton's own search for every occurrence of
    // every word, overlapping ones too, in any ASCII case.
    let ac = aho_corasick::AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .match_kind(aho_corasick::MatchKind::Standard)
        .build(HINT_WORDS.iter().map(|(w, _)| w))
        .expect("automaton");
    let oracle = |s: &str| {
        ac.find_overlapping_iter(s)
            .fold(0, |h, m| h | HINT_WORDS[m.pattern().as_usize()].1)
    };
    // Words cut, run together and inside one another, in mixed case,
    // beside characters Unicode folds to ASCII letters (`ſ`, the Kelvin
    // sign), which ASCII case does not.
    let mut pieces: Vec<String> = HINT_WORDS.iter().map(|(w, _)| w.to_string()).collect();
    for (w, _) in HINT_WORDS {
        pieces.push(w[..w.len() - 1].to_string());
        pieces.push(w[1..].to_string());
    }
    for p in [" ", "'", ":", "/", "1", "a", "ſ", "\u{212a}", "é", "\0"] {
        pieces.push(p.to_string());
    }
    let mut rng = crate::testrng::Rng::new(43);
    let mut seen = 0u16;
    for _ in 0..20_000 {
        let mut s = String::new();
        for _ in 0..rng.below(12) {
            let p = &pieces[rng.below(pieces.len())];
            match rng.below(3) {
                0 => s.push_str(&p.to_ascii_uppercase()),
                _ => s.push_str(p),
            }
        }
        let want = oracle(&s);
        assert_eq!(hints(&s), want, "{s:?}");
        seen |= want;
    }
    assert_eq!(seen, HINT_WORDS.iter().fold(0, |h, (_, b)| h | b));
    assert_eq!(hints("\u{212a}ey user"), H_NAMES | P_USER);
    assert_eq!(hints("hoſt://x"), H_URL);
    assert_eq!(hints("hostoken"), H_NAMES | P_HOST | H_SECRET);
}
