//! The URL's hosts in turn, decided in one place for the store's own
//! client and for the keeper: the order (`load_balance_hosts=random`
//! shuffles it), each host's port and address, and `sslmode=allow`'s
//! second, encrypted try, made on the same host before the next one (and
//! never over a Unix socket, which is never encrypted), as libpq makes it.

use std::net::{IpAddr, SocketAddr};

use postgres::config::{Host, LoadBalanceHosts, SslMode};

use super::url::PgUrl;

/// One host of the URL: its name or socket directory (none when the URL
/// gives only `hostaddr`), its address, its port.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Target {
    pub host: Option<Host>,
    pub hostaddr: Option<IpAddr>,
    pub port: u16,
}

impl Target {
    /// The name a TLS certificate is checked against: the host's name,
    /// else its address.
    pub fn server_name(&self) -> Option<String> {
        match (&self.host, self.hostaddr) {
            (Some(Host::Tcp(name)), _) => Some(name.clone()),
            (_, Some(address)) => Some(address.to_string()),
            _ => None,
        }
    }

    fn is_socket(&self) -> bool {
        matches!(self.host, Some(Host::Unix(_))) && self.hostaddr.is_none()
    }
}

/// One connection attempt: where, and in which mode.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Attempt {
    pub target: Target,
    pub mode: SslMode,
}

/// The attempts for one connection, each given how the last one ended.
pub(crate) struct Turns<'a> {
    url: &'a PgUrl,
    order: Vec<usize>,
    /// The index into `order` of the host tried last, and whether that
    /// try was `allow`'s encrypted second one.
    at: Option<(usize, bool)>,
}

impl<'a> Turns<'a> {
    /// The URL's hosts in the order to try them; `Err` names what is
    /// inconsistent (as the client library would refuse it).
    pub fn new(url: &'a PgUrl) -> std::result::Result<Turns<'a>, String> {
        let config = &url.config;
        let (hosts, addresses, ports) = (
            config.get_hosts().len(),
            config.get_hostaddrs().len(),
            config.get_ports().len(),
        );
        if hosts > 0 && addresses > 0 && hosts != addresses {
            return Err(format!(
                "{hosts} hosts but {addresses} hostaddr values: give one address per host"
            ));
        }
        let count = hosts.max(addresses);
        if count == 0 {
            return Err("the URL names no host".into());
        }
        if ports > 1 && ports != count {
            return Err(format!(
                "{count} hosts but {ports} ports: give one port, or one per host"
            ));
        }
        let mut order: Vec<usize> = (0..count).collect();
        if config.get_load_balance_hosts() == LoadBalanceHosts::Random {
            fastrand::shuffle(&mut order);
        }
        Ok(Turns {
            url,
            order,
            at: None,
        })
    }

    /// The next attempt, given the SQLSTATE the last one was refused with
    /// (`None` when it failed otherwise); `None` when every host was tried.
    pub fn next(&mut self, refused_with: Option<&str>) -> Option<Attempt> {
        let first_mode = self.url.config.get_ssl_mode();
        let (index, encrypted) = match self.at {
            None => (0, false),
            Some((index, false))
                if refused_with.is_some_and(|code| {
                    self.url.tls.retries_encrypted(first_mode, code)
                        && !self.target(index).is_socket()
                }) =>
            {
                (index, true)
            }
            Some((index, _)) => (index + 1, false),
        };
        if index >= self.order.len() {
            return None;
        }
        self.at = Some((index, encrypted));
        Some(Attempt {
            target: self.target(index),
            mode: if encrypted {
                SslMode::Require
            } else {
                first_mode
            },
        })
    }

    fn target(&self, index: usize) -> Target {
        let config = &self.url.config;
        let i = self.order[index];
        let ports = config.get_ports();
        Target {
            host: config.get_hosts().get(i).cloned(),
            hostaddr: config.get_hostaddrs().get(i).copied(),
            port: ports.get(i).or(ports.first()).copied().unwrap_or(5432),
        }
    }
}

/// The addresses one host name resolved to, in the order to try them:
/// as resolved, or shuffled under `load_balance_hosts=random` (libpq
/// shuffles a name's addresses as well as the hosts).
pub(crate) fn addresses_in_turn(url: &PgUrl, mut addresses: Vec<SocketAddr>) -> Vec<SocketAddr> {
    if url.config.get_load_balance_hosts() == LoadBalanceHosts::Random {
        fastrand::shuffle(&mut addresses);
    }
    addresses
}

/// The client library's configuration for one attempt: the URL's, with
/// only that host, its address and port, and the attempt's mode (the
/// library then tries that host alone; the order is [`Turns`]').
pub(crate) fn config_for(url: &PgUrl, target: &Target, mode: SslMode) -> postgres::Config {
    let from = &url.config;
    let mut config = postgres::Config::new();
    if let Some(user) = from.get_user() {
        config.user(user);
    }
    if let Some(password) = from.get_password() {
        config.password(password);
    }
    if let Some(dbname) = from.get_dbname() {
        config.dbname(dbname);
    }
    if let Some(options) = from.get_options() {
        config.options(options);
    }
    if let Some(name) = from.get_application_name() {
        config.application_name(name);
    }
    match &target.host {
        Some(Host::Tcp(name)) => config.host(name),
        Some(Host::Unix(dir)) => config.host_path(dir),
        None => &mut config,
    };
    if let Some(address) = target.hostaddr {
        config.hostaddr(address);
    }
    config
        .port(target.port)
        .ssl_mode(mode)
        .ssl_negotiation(from.get_ssl_negotiation())
        .keepalives(from.get_keepalives())
        .keepalives_idle(from.get_keepalives_idle())
        .target_session_attrs(from.get_target_session_attrs())
        .channel_binding(from.get_channel_binding())
        .load_balance_hosts(from.get_load_balance_hosts());
    if let Some(limit) = from.get_connect_timeout() {
        config.connect_timeout(*limit);
    }
    if let Some(limit) = from.get_tcp_user_timeout() {
        config.tcp_user_timeout(*limit);
    }
    if let Some(interval) = from.get_keepalives_interval() {
        config.keepalives_interval(interval);
    }
    if let Some(retries) = from.get_keepalives_retries() {
        config.keepalives_retries(retries);
    }
    config
}

#[cfg(test)]
mod tests;
