//! The secrets suite: `ollm env run -- env` under an environment holding
//! hundreds of realistic credential variables (cloud, CI, database, payment,
//! chat and model providers) and credential-shaped values under innocent
//! names. Nothing may reach the child, and no error output may show a value.

use crate::support::{Sandbox, stderr, stdout};

const PROVIDERS: &[&str] = &[
    "OPENAI",
    "ANTHROPIC",
    "COHERE",
    "MISTRAL",
    "GROQ",
    "TOGETHER",
    "REPLICATE",
    "HUGGINGFACE",
    "PERPLEXITY",
    "FIREWORKS",
    "DEEPSEEK",
    "GEMINI",
    "AZURE_OPENAI",
    "GCP",
    "AZURE",
    "DIGITALOCEAN",
    "LINODE",
    "HETZNER",
    "CLOUDFLARE",
    "VERCEL",
    "NETLIFY",
    "HEROKU",
    "FLY",
    "RENDER",
    "SUPABASE",
    "FIREBASE",
    "STRIPE",
    "PAYPAL",
    "BRAINTREE",
    "SQUARE",
    "ADYEN",
    "PLAID",
    "TWILIO",
    "SENDGRID",
    "MAILGUN",
    "POSTMARK",
    "SLACK",
    "DISCORD",
    "TELEGRAM",
    "MATTERMOST",
    "GITLAB",
    "BITBUCKET",
    "CIRCLECI",
    "TRAVIS",
    "JENKINS",
    "BUILDKITE",
    "DRONE",
    "CODECOV",
    "SONAR",
    "SNYK",
    "NPM",
    "PYPI",
    "DOCKERHUB",
    "QUAY",
    "SENTRY",
    "DATADOG",
    "NEWRELIC",
    "HONEYCOMB",
    "PAGERDUTY",
    "POSTGRES",
    "MYSQL",
    "MONGODB",
    "REDIS",
    "ELASTIC",
    "ALGOLIA",
    "PINECONE",
    "QDRANT",
    "AUTH0",
    "OKTA",
    "CLERK",
];

const SUFFIXES: &[&str] = &[
    "API_KEY",
    "SECRET_KEY",
    "ACCESS_TOKEN",
    "CLIENT_SECRET",
    "PASSWORD",
    "WEBHOOK_SECRET",
    "APIKEY",
    "AUTH_TOKEN",
    "PRIVATE_KEY",
    "SIGNING_SECRET",
    "TOKEN",
    "ACCESS_KEY_ID",
    "DSN",
    "WEBHOOK_URL",
];

/// Well-known credential variables whose names follow no provider pattern.
const WELL_KNOWN: &[&str] = &[
    "PGPASSWORD",
    "MYSQL_PWD",
    "MYSQL_ROOT_PASSWORD",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "ARM_CLIENT_SECRET",
    "CI_JOB_TOKEN",
    "CI_REGISTRY_PASSWORD",
    "ACTIONS_RUNTIME_TOKEN",
    "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "GITHUB_PAT",
    "VAULT_TOKEN",
    "CONSUL_HTTP_TOKEN",
    "NOMAD_TOKEN",
    "TF_VAR_db_password",
    "NPM_CONFIG__AUTH",
    "NODE_AUTH_TOKEN",
    "TWINE_PASSWORD",
    "CARGO_REGISTRY_TOKEN",
    "GEM_HOST_API_KEY",
    "NUGET_API_KEY",
    "COVERALLS_REPO_TOKEN",
    "HF_TOKEN",
    "HUGGING_FACE_HUB_TOKEN",
    "SECRET",
    "TOKEN",
    "PASSWORD",
    "API_KEY",
    "SESSION_SECRET",
    "JWT_SECRET",
    "COOKIE_SECRET",
    "ENCRYPTION_KEY",
    "MASTER_KEY",
    "AZURE_STORAGE_CONNECTION_STRING",
    "AZURE_STORAGE_SAS",
    "SSH_PRIVATE_KEY",
    "GPG_PASSPHRASE_PASSWORD",
    "KEYSTORE_PASSWD",
    "SMTP_PASS",
];

/// Credential-shaped values under names no rule would remove.
const SHAPED_VALUES: &[(&str, &str)] = &[
    ("CONFIG_BLOB", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
    (
        "DATABASE_URL",
        "postgres://app:s3cret-pw@db.internal:5432/app",
    ),
    ("REDIS_URL", "redis://default:r3dis-pass@cache:6379"),
    (
        "MONGO_URI",
        "mongodb+srv://user:mongo-pass-1@cluster0.example.net/db",
    ),
    ("OPENAI", "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"),
    ("LLM", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123"),
    (
        "CHAT",
        "xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx",
    ),
    ("PAY", "sk_live_abcdefghijklmnopqrstuvwx"),
    ("ID", "AKIAIOSFODNN7EXAMPLE"),
    (
        "BEARER",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
    ),
    (
        "DEPLOY",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
    ),
    (
        "SA_JSON",
        "{\"type\":\"service_account\",\"private_key\":\"-----BEGIN PRIVATE KEY-----\\nMIIE\"}",
    ),
    ("MAPS", "AIzaSyA-abcdefghijklmnopqrstuvwxyz012345"),
    ("PKG", "npm_abcdefghijklmnopqrstuvwxyz0123456789"),
    ("MODEL_HUB", "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH"),
    (
        "MAIL",
        "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
    ),
    (
        "NOTIFY",
        "https://hooks.slack.com/services/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",
    ),
    (
        "ERRORS",
        "https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/1",
    ),
    (
        "STORAGE",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abcdefghijklmnopqrstuvwxyz0123456789+/==",
    ),
    ("GL", "glpat-abcdefghijklmnopqrst"),
];

/// Every (name, value) of the suite: at least 300 credential variables.
fn secret_environment() -> Vec<(String, String)> {
    let mut env = Vec::new();
    for provider in PROVIDERS {
        for suffix in SUFFIXES {
            let name = format!("{provider}_{suffix}");
            env.push((name.clone(), format!("v4lue-of-{}", name.to_lowercase())));
        }
    }
    for name in WELL_KNOWN {
        env.push((
            name.to_string(),
            format!("v4lue-of-{}", name.to_lowercase()),
        ));
    }
    for (name, value) in SHAPED_VALUES {
        env.push((name.to_string(), value.to_string()));
    }
    env.sort();
    env.dedup_by(|a, b| a.0 == b.0);
    env
}

/// Innocent variables a tool needs, which must survive.
const INNOCENT: &[(&str, &str)] = &[
    ("NODE_ENV", "production"),
    ("DEBUG", "app:*"),
    ("PORT", "8080"),
    ("TZ", "UTC"),
    ("EDITOR", "vim"),
    ("PAGER", "less"),
    ("GOPATH", "/go"),
    ("JAVA_HOME", "/usr/lib/jvm/default"),
    ("TOKENIZERS_PARALLELISM", "false"),
    ("CI", "true"),
];

#[test]
fn no_secret_reaches_the_child() {
    let env = secret_environment();
    assert!(env.len() >= 300, "only {} secret variables", env.len());
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd("ollm");
    cmd.args(["env", "run", "--", "env"]);
    for (name, value) in &env {
        cmd.env(name, value);
    }
    for (name, value) in INNOCENT {
        cmd.env(name, value);
    }
    let output = cmd.output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let seen = stdout(&output);
    let mut leaked = Vec::new();
    for (name, value) in &env {
        let first_line = value.lines().next().unwrap_or(value);
        if seen.contains(first_line) || seen.lines().any(|l| l.starts_with(&format!("{name}="))) {
            leaked.push(name.as_str());
        }
    }
    assert!(leaked.is_empty(), "leaked: {leaked:?}");
    for (name, value) in INNOCENT {
        assert!(
            seen.contains(&format!("{name}={value}\n")),
            "{name} was removed"
        );
    }
}

#[test]
fn no_error_output_shows_a_secret_value() {
    let env = secret_environment();
    let sandbox = Sandbox::new();
    // Each of these fails and prints a diagnostic; the secret-shaped values
    // are also handed in as arguments, file names and configuration.
    let shaped: Vec<&str> = SHAPED_VALUES
        .iter()
        .map(|(_, v)| *v)
        .filter(|v| !v.contains('\n'))
        .collect();
    let config = sandbox.write(
        "bad.yaml",
        &format!("services:\n  session:\n    maxSessions: {:?}\n", shaped[0]),
    );
    let mut runs: Vec<Vec<String>> = vec![vec![
        "env".into(),
        "--config".into(),
        config.display().to_string(),
        "config".into(),
    ]];
    for value in &shaped {
        runs.push(vec![
            "env".into(),
            "run".into(),
            "--".into(),
            value.to_string(),
        ]);
        runs.push(vec![value.to_string()]);
        runs.push(vec![
            "env".into(),
            "--config".into(),
            format!("/nonexistent/{value}"),
            "report".into(),
        ]);
    }
    for args in runs {
        let mut cmd = sandbox.cmd("ollm");
        cmd.args(&args);
        for (name, value) in &env {
            cmd.env(name, value);
        }
        let output = cmd.output().unwrap();
        assert!(!output.status.success(), "{args:?} should fail");
        let err = stderr(&output);
        for (name, value) in &env {
            let first_line = value.lines().next().unwrap_or(value);
            assert!(!err.contains(first_line), "{name}'s value in: {err}");
        }
    }
}
