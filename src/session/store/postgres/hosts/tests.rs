use postgres::config::{Host, SslMode};

use super::{Turns, addresses_in_turn, config_for};
use crate::session::store::postgres::url::{PgUrl, parse};

/// The hosts of every attempt until the hosts run out, each refused as
/// `refuse` says, as `name:port mode`.
fn attempts(url: &PgUrl, refuse: impl Fn(&str) -> Option<&'static str>) -> Vec<String> {
    let mut turns = Turns::new(url).unwrap();
    let mut seen = Vec::new();
    let mut refused = None;
    while let Some(attempt) = turns.next(refused) {
        let name = match &attempt.target.host {
            Some(Host::Tcp(name)) => name.clone(),
            Some(Host::Unix(dir)) => dir.display().to_string(),
            None => attempt.target.hostaddr.unwrap().to_string(),
        };
        let mode = match attempt.mode {
            SslMode::Disable => "clear",
            SslMode::Require => "tls",
            _ => "prefer",
        };
        let shown = format!("{name}:{} {mode}", attempt.target.port);
        refused = refuse(&shown);
        seen.push(shown);
    }
    seen
}

const BY_RULES: Option<&str> = Some("28000");

#[test]
fn hosts_are_tried_in_the_urls_order_each_with_its_port() {
    let url = parse("postgresql://u@a:5001,b:5002,c/db?sslmode=disable").unwrap();
    assert_eq!(
        attempts(&url, |_| None),
        ["a:5001 clear", "b:5002 clear", "c:5432 clear"]
    );
    let shared = parse("host=a,b port=5005 user=u sslmode=prefer").unwrap();
    assert_eq!(
        attempts(&shared, |_| None),
        ["a:5005 prefer", "b:5005 prefer"]
    );
}

#[test]
fn allow_tries_a_host_again_encrypted_before_the_next_one() {
    let url = parse("postgresql://u@a,b/db?sslmode=allow").unwrap();
    // Refused by its rules in the clear, then otherwise when encrypted.
    assert_eq!(
        attempts(&url, |at| (at == "a:5432 clear").then_some("28000")),
        ["a:5432 clear", "a:5432 tls", "b:5432 clear"]
    );
    // Refused by rules every time: one encrypted try per host, no more.
    assert_eq!(
        attempts(&url, |_| BY_RULES),
        ["a:5432 clear", "a:5432 tls", "b:5432 clear", "b:5432 tls"]
    );
    // Refused for another reason (a password): the next host, in the clear.
    assert_eq!(
        attempts(&url, |_| Some("28P01")),
        ["a:5432 clear", "b:5432 clear"]
    );
}

#[test]
fn only_allow_tries_again_encrypted() {
    for mode in ["disable", "prefer", "require"] {
        let url = parse(&format!("postgresql://u@a,b/db?sslmode={mode}")).unwrap();
        assert_eq!(attempts(&url, |_| BY_RULES).len(), 2, "{mode}");
    }
}

#[test]
fn a_socket_is_never_tried_again_encrypted() {
    let url = parse("postgresql://u@%2Frun%2Fpg,b/db?sslmode=allow").unwrap();
    assert_eq!(
        attempts(&url, |_| BY_RULES),
        ["/run/pg:5432 clear", "b:5432 clear", "b:5432 tls"]
    );
}

#[test]
fn load_balance_hosts_random_tries_every_host_once_in_a_shuffled_order() {
    let url = parse("postgresql://u@a,b,c/db?sslmode=disable&load_balance_hosts=random").unwrap();
    let mut firsts = std::collections::BTreeSet::new();
    for _ in 0..200 {
        let mut seen = attempts(&url, |_| None);
        firsts.insert(seen[0].clone());
        seen.sort();
        assert_eq!(seen, ["a:5432 clear", "b:5432 clear", "c:5432 clear"]);
    }
    assert_eq!(firsts.len(), 3, "every host comes first sometimes");
    let url = parse("postgresql://u@a,b,c/db?sslmode=disable").unwrap();
    for _ in 0..20 {
        assert_eq!(attempts(&url, |_| None)[0], "a:5432 clear");
    }
}

#[test]
fn load_balance_hosts_random_shuffles_the_addresses_of_one_name_too() {
    let addresses: Vec<std::net::SocketAddr> = (1..=4)
        .map(|i| format!("10.0.0.{i}:5432").parse().unwrap())
        .collect();
    let random = parse("postgresql://u@db/x?load_balance_hosts=random").unwrap();
    let mut firsts = std::collections::BTreeSet::new();
    for _ in 0..200 {
        let mut turn = addresses_in_turn(&random, addresses.clone());
        firsts.insert(turn[0]);
        turn.sort();
        assert_eq!(turn, addresses, "every address once");
    }
    assert_eq!(firsts.len(), 4, "every address comes first sometimes");
    let in_order = parse("postgresql://u@db/x").unwrap();
    for _ in 0..20 {
        assert_eq!(addresses_in_turn(&in_order, addresses.clone()), addresses);
    }
}

#[test]
fn hostaddr_alone_names_the_hosts_and_counts_must_agree() {
    let url = parse("host=a,b hostaddr=10.0.0.1,10.0.0.2 port=1,2 user=u sslmode=disable").unwrap();
    let mut turns = Turns::new(&url).unwrap();
    let first = turns.next(None).unwrap().target;
    assert_eq!(first.hostaddr, Some("10.0.0.1".parse().unwrap()));
    assert_eq!(first.server_name().as_deref(), Some("a"));
    let only = parse("hostaddr=10.0.0.9 user=u sslmode=disable").unwrap();
    let target = Turns::new(&only).unwrap().next(None).unwrap().target;
    assert_eq!(target.server_name().as_deref(), Some("10.0.0.9"));
    for (given, says) in [
        ("host=a,b hostaddr=10.0.0.1 user=u", "hostaddr"),
        ("host=a,b,c port=1,2 user=u", "ports"),
    ] {
        let err = Turns::new(&parse(given).unwrap()).err().unwrap();
        assert!(err.contains(says), "{given}: {err}");
    }
}

#[test]
fn an_attempts_configuration_is_the_urls_but_for_its_host_and_mode() {
    let url = parse(
        "postgresql://me:pw@db.example:6000/app?sslmode=require&connect_timeout=3&keepalives=0\
         &keepalives_idle=7&tcp_user_timeout=9000&target_session_attrs=read-write\
         &channel_binding=disable&load_balance_hosts=random&application_name=x&options=-cfoo%3Dbar",
    )
    .unwrap();
    let target = Turns::new(&url).unwrap().next(None).unwrap().target;
    let config = config_for(&url, &target, url.config.get_ssl_mode());
    assert_eq!(format!("{config:?}"), format!("{:?}", url.config));
    assert_eq!(config.get_password(), url.config.get_password());
    assert_eq!(
        config.get_ssl_negotiation(),
        url.config.get_ssl_negotiation()
    );
    let clear = config_for(&url, &target, SslMode::Disable);
    assert_eq!(clear.get_ssl_mode(), SslMode::Disable);
}
