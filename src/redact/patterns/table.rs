//! The table of credential shapes: each its name, the literals that
//! trigger its regex, the regex, and what of a match is kept.

use super::{Keep, ValuePattern};

const fn shape(
    name: &'static str,
    triggers: &'static [&'static str],
    regex: &'static str,
) -> ValuePattern {
    ValuePattern {
        name,
        triggers,
        regex,
        keep: Keep::Nothing,
    }
}

/// The credential shapes checked in values.
///
/// A shape whose prefix is distinctive (`ghp_`, `github_pat_`, `glpat-`,
/// `sk-proj-`, `AKIA`, `xoxb-`, `npm_`, …) is anchored on that prefix
/// alone, not on a word boundary: tools print tokens glued to what is
/// around them (`MY_ghp_…`, a JSON-escaped `\nghp_…`, a URL's
/// `Bearer%20ghp_…` or `key%3Dsk-proj-…`). A short or common prefix
/// (`sk-`, `key-`, `SK`) keeps its word boundary, so that `risk-…` or a
/// word ending in `sk` stays.
pub const VALUE_PATTERNS: &[ValuePattern] = &[
    shape(
        "private-key",
        &["PRIVATE KEY"],
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----",
    ),
    shape(
        "age-secret-key",
        &["AGE-SECRET-KEY-"],
        r"AGE-SECRET-KEY-1[0-9A-Z]{58}",
    ),
    shape(
        "aws-access-key-id",
        &[
            "AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA", "A3T",
        ],
        r"(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|A3T[A-Z0-9])[0-9A-Z]{16}(?-u:\b)",
    ),
    shape(
        "github-token",
        &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        r"(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})",
    ),
    shape(
        "gitlab-token",
        &[
            "glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "gloas-", "glsoat-", "glft-", "glimt-",
            "glagent-", "glwt-", "glffct-",
        ],
        r"(?:glpat|gldt|glrt|glptt|glcbt|gloas|glsoat|glft|glimt|glagent|glwt|glffct)-[A-Za-z0-9_\-]{20,}",
    ),
    shape(
        "gitlab-runner-registration",
        &["GR1348941"],
        r"(?-u:\b)GR1348941[A-Za-z0-9_\-]{20,}",
    ),
    shape(
        "anthropic-admin-key",
        &["sk-ant-admin01-"],
        r"sk-ant-admin01-[A-Za-z0-9_\-]{20,}",
    ),
    shape(
        "api-key-sk",
        &["sk-"],
        r"(?-u:\b)sk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_\-]{20,}|sk-(?:proj|ant|svcacct|admin)-[A-Za-z0-9_\-]{20,}",
    ),
    shape(
        "slack-token",
        &["xox", "xapp-"],
        r"(?:xox[abposre]|xapp)-[A-Za-z0-9\-]{10,}|xoxe\.xox[bp]-[A-Za-z0-9\-]{10,}",
    ),
    shape(
        "stripe-key",
        &["_live_", "_test_", "whsec_"],
        r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{16,}",
    ),
    shape("google-api-key", &["AIza"], r"AIza[0-9A-Za-z_\-]{35}"),
    shape("npm-token", &["npm_"], r"npm_[A-Za-z0-9]{36}"),
    shape("pypi-token", &["pypi-"], r"pypi-AgE[A-Za-z0-9_\-]{16,}"),
    shape("digitalocean-token", &["_v1_"], r"do[opr]_v1_[a-f0-9]{64}"),
    shape(
        "jwt",
        &["eyJ"],
        r"eyJ[A-Za-z0-9_\-]{8,}\.(?:eyJ[A-Za-z0-9_\-]*|e30)\.[A-Za-z0-9_\-]*",
    ),
    shape("huggingface-token", &["hf_"], r"hf_[A-Za-z0-9]{30,}"),
    shape(
        "sendgrid-key",
        &["SG."],
        r"(?-u:\b)SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}",
    ),
    shape(
        "google-oauth-token",
        &["ya29."],
        r"(?-u:\b)ya29\.[0-9A-Za-z_\-]{20,}",
    ),
    shape(
        "shopify-token",
        &["shpat_", "shpss_", "shpca_", "shppa_"],
        r"(?-u:\b)shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",
    ),
    shape(
        "hashicorp-vault-token",
        &["hvs.", "hvb."],
        r"(?-u:\b)hv[sb]\.[A-Za-z0-9_\-]{24,}",
    ),
    shape(
        "tailscale-key",
        &["tskey-"],
        r"(?-u:\b)tskey-[a-z]+-[A-Za-z0-9\-]{16,}",
    ),
    shape(
        "docker-hub-token",
        &["dckr_pat_"],
        r"dckr_pat_[A-Za-z0-9_\-]{20,}",
    ),
    shape("databricks-token", &["dapi"], r"(?-u:\b)dapi[a-f0-9]{32}"),
    shape("groq-key", &["gsk_"], r"gsk_[A-Za-z0-9]{40,}"),
    shape(
        "linear-key",
        &["lin_api_"],
        r"(?-u:\b)lin_api_[A-Za-z0-9]{32,}",
    ),
    shape(
        "postman-key",
        &["PMAK-"],
        r"(?-u:\b)PMAK-[a-f0-9]{24}-[a-f0-9]{34}",
    ),
    shape(
        "grafana-token",
        &["glc_", "glsa_"],
        r"(?-u:\b)gl(?:c|sa)_[A-Za-z0-9_=+/]{32,}",
    ),
    shape(
        "sentry-token",
        &["sntr"],
        r"(?-u:\b)sntry[su]_[A-Za-z0-9+/=_]{32,}",
    ),
    shape(
        "atlassian-token",
        &["ATATT3"],
        r"(?-u:\b)ATATT3[A-Za-z0-9_\-=]{32,}",
    ),
    shape(
        "twilio-api-key",
        &["SK"],
        r"(?-u:\b)SK[0-9a-fA-F]{32}(?-u:\b)",
    ),
    shape(
        "mailgun-key",
        &["key-"],
        r"(?-u:\b)key-[0-9a-zA-Z]{32}(?-u:\b)",
    ),
    // JSON Web Encryption, compact form: header, encrypted key (empty for
    // direct encryption), IV, ciphertext, tag.
    shape(
        "jwe",
        &["eyJ"],
        r"(?-u:\b)eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
    ),
    shape(
        "azure-ad-client-secret",
        &["Q~"],
        r"[a-zA-Z0-9_~.]{3}[0-9]Q~[a-zA-Z0-9_~.\-]{31,34}",
    ),
    shape(
        "cloudflare-origin-ca-key",
        &["v1.0-"],
        r"(?-u:\b)v1\.0-[a-f0-9]{24}-[a-f0-9]{146}",
    ),
    shape(
        "doppler-token",
        &["dp."],
        r"(?-u:\b)dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}",
    ),
    shape(
        "dynatrace-token",
        &["dt0c01."],
        r"(?-u:\b)dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}",
    ),
    shape(
        "flyio-token",
        &["fo1_", "fm1", "fm2_"],
        r"(?-u:\b)(?:fo1_[A-Za-z0-9_\-]{43}|fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3})",
    ),
    shape(
        "frameio-token",
        &["fio-u-"],
        r"(?-u:\b)fio-u-[A-Za-z0-9_=\-]{64}",
    ),
    shape(
        "alibaba-access-key-id",
        &["LTAI"],
        r"(?-u:\b)LTAI[A-Za-z0-9]{20}(?-u:\b)",
    ),
    shape(
        "clojars-token",
        &["clojars_"],
        r"(?i)(?-u:\b)CLOJARS_[a-z0-9]{60}",
    ),
    shape(
        "duffel-token",
        &["duffel_"],
        r"(?-u:\b)duffel_(?:test|live)_[A-Za-z0-9_=\-]{43}",
    ),
    shape(
        "easypost-key",
        &["EZAK", "EZTK"],
        r"(?-u:\b)EZ[AT]K[A-Za-z0-9]{54}",
    ),
    shape(
        "flutterwave-key",
        &["FLWSECK", "FLWPUBK"],
        r"(?-u:\b)FLW(?:SECK|PUBK)(?:_TEST)?-[a-hA-H0-9]{12,32}(?:-X)?",
    ),
    shape(
        "heroku-api-key",
        &["HRKU-"],
        r"(?-u:\b)HRKU-AA[A-Za-z0-9_\-]{58}",
    ),
    shape(
        "infracost-token",
        &["ico-"],
        r"(?-u:\b)ico-[A-Za-z0-9]{32}(?-u:\b)",
    ),
    shape(
        "intra42-secret",
        &["s-s4t2"],
        r"(?-u:\b)s-s4t2(?:ud|af)-[a-f0-9]{64}",
    ),
    shape(
        "mapbox-secret-token",
        &["sk.eyJ"],
        r"(?-u:\b)sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}",
    ),
    shape(
        "new-relic-key",
        &["NRAK-", "NRJS-", "NRII-"],
        r"(?-u:\b)(?:NRAK-[A-Z0-9]{27}|NRJS-[a-f0-9]{19}|NRII-[A-Za-z0-9\-]{32})",
    ),
    shape("notion-token", &["ntn_"], r"(?-u:\b)ntn_[A-Za-z0-9]{40,}"),
    shape(
        "openshift-token",
        &["sha256~"],
        r"sha256~[A-Za-z0-9_\-]{43}",
    ),
    shape(
        "planetscale-token",
        &["pscale_"],
        r"(?-u:\b)pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.\-]{32,64}",
    ),
    shape("prefect-token", &["pnu_"], r"(?-u:\b)pnu_[A-Za-z0-9]{36}"),
    shape("pulumi-token", &["pul-"], r"(?-u:\b)pul-[a-f0-9]{40}"),
    shape("readme-key", &["rdme_"], r"(?-u:\b)rdme_[a-z0-9]{70}"),
    shape(
        "rubygems-key",
        &["rubygems_"],
        r"(?-u:\b)rubygems_[a-f0-9]{48}",
    ),
    shape(
        "scalingo-token",
        &["tk-us-"],
        r"(?-u:\b)tk-us-[A-Za-z0-9_\-]{48}",
    ),
    shape(
        "brevo-key",
        &["xkeysib-", "xsmtpsib-"],
        r"(?-u:\b)(?:xkeysib|xsmtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}",
    ),
    shape(
        "settlemint-token",
        &["sm_pat_", "sm_aat_", "sm_sat_"],
        r"(?-u:\b)sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}",
    ),
    shape(
        "shippo-token",
        &["shippo_"],
        r"(?-u:\b)shippo_(?:live|test)_[a-fA-F0-9]{40}",
    ),
    shape(
        "square-token",
        &["EAAA", "sq0atp-", "sq0csp-"],
        r"(?-u:\b)(?:EAAA[A-Za-z0-9_\-]{60}|sq0atp-[A-Za-z0-9_\-]{22,}|sq0csp-[A-Za-z0-9_\-]{43})",
    ),
    shape(
        "telegram-bot-token",
        &[":AA"],
        r"(?-u:\b)[0-9]{8,10}:AA[0-9A-Za-z_\-]{33}",
    ),
    shape(
        "typeform-token",
        &["tfp_"],
        r"(?-u:\b)tfp_[A-Za-z0-9_.=\-]{59}",
    ),
    shape(
        "yandex-key",
        &["AQVN", "t1."],
        r"(?-u:\b)(?:AQVN[A-Za-z0-9_\-]{35,38}|t1\.[A-Za-z0-9_\-]+=*\.[A-Za-z0-9_\-]{86}=*)",
    ),
    shape("artifactory-key", &["AKCp"], r"(?-u:\b)AKCp[A-Za-z0-9]{69}"),
    shape("replicate-token", &["r8_"], r"(?-u:\b)r8_[A-Za-z0-9]{37}"),
    shape(
        "perplexity-key",
        &["pplx-"],
        r"(?-u:\b)pplx-[A-Za-z0-9]{48}",
    ),
    shape("xai-key", &["xai-"], r"(?-u:\b)xai-[A-Za-z0-9]{80}"),
    shape(
        "vercel-token",
        &["vcp_", "vci_", "vca_", "vcr_", "vck_"],
        r"(?-u:\b)vc[piark]_[A-Za-z0-9]{24,}",
    ),
    shape(
        "supabase-key",
        &["sbp_", "sb_secret_"],
        r"(?-u:\b)(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_\-]{20,})",
    ),
    shape(
        "mailchimp-key",
        &["-us"],
        r"(?-u:\b)[0-9a-f]{32}-us[0-9]{1,2}(?-u:\b)",
    ),
    shape("nuget-key", &["oy2"], r"(?-u:\b)oy2[a-z0-9]{43}"),
    shape(
        "airtable-pat",
        &["pat"],
        r"(?-u:\b)pat[A-Za-z0-9]{14}\.[a-f0-9]{64}",
    ),
    shape("buildkite-token", &["bkua_"], r"(?-u:\b)bkua_[a-f0-9]{40}"),
    shape(
        "circleci-token",
        &["CCIPAT_", "CCIPRJ_"],
        r"(?-u:\b)CCI(?:PAT|PRJ)_[A-Za-z0-9]{22}_[a-f0-9]{40}",
    ),
    shape(
        "figma-token",
        &["figd_"],
        r"(?-u:\b)figd_[A-Za-z0-9_\-]{40}",
    ),
    shape(
        "terraform-cloud-token",
        &[".atlasv1."],
        r"(?-u:\b)[a-z0-9]{14}\.atlasv1\.[a-z0-9_=\-]{60,70}",
    ),
    shape(
        "octopus-key",
        &["API-"],
        r"(?-u:\b)API-[A-Z0-9]{26}(?-u:\b)",
    ),
    // `.npmrc`: `//registry/:_authToken=…`, `_auth=…` (base64 of
    // user:password), `_password=…`; not a `${NPM_TOKEN}` reference.
    ValuePattern {
        name: "npm-auth",
        triggers: &["_authToken=", "_auth=", "_password="],
        regex: r#"(?-u:\b)_(?:authToken|auth|password)=[^\s$"'{<>][^\s"']{7,}"#,
        keep: Keep::Key,
    },
    ValuePattern {
        name: "aws-secret-access-key",
        triggers: &["secret_access_key", "secretaccesskey"],
        regex: r#"(?i)(?:secret_access_key|secretaccesskey)["']?[ \t]*[=:][ \t]*["']?[A-Za-z0-9/+]{40}"#,
        keep: Keep::Key,
    },
    ValuePattern {
        name: "azure-account-key",
        triggers: &["accountkey="],
        regex: r"(?i)AccountKey=[A-Za-z0-9+/=]{20,}",
        keep: Keep::Key,
    },
    ValuePattern {
        name: "azure-sas-signature",
        triggers: &["sig="],
        regex: r"(?i)(?-u:\b)sig=[A-Za-z0-9%+/=]{16,}",
        keep: Keep::Key,
    },
    ValuePattern {
        name: "password-parameter",
        triggers: &["password=", "passwd=", "pwd="],
        regex: r"(?i)(?-u:\b)(?:password|passwd|pwd)=[^\s&;]+",
        keep: Keep::Key,
    },
    ValuePattern {
        name: "authorization-header",
        triggers: &["authorization:"],
        regex: r"(?i)(?-u:\b)authorization:[ \t]*(?:basic|bearer|token|negotiate|digest)[ \t]+[A-Za-z0-9+/=._~\-]{8,}",
        keep: Keep::Key,
    },
    ValuePattern {
        name: "docker-auth",
        triggers: &["\"auth\"", "\"identitytoken\""],
        regex: r#""(?:auth|identitytoken)"[ \t]*:[ \t]*"[A-Za-z0-9+/=._\-]{8,}""#,
        keep: Keep::Key,
    },
    shape(
        "webhook-url",
        &["https://"],
        r"(?i)https://(?:hooks\.slack\.com/services|(?:discord|discordapp)\.com/api/webhooks)/[A-Za-z0-9_/\-]{16,}",
    ),
    ValuePattern {
        name: "url-token",
        triggers: &["://"],
        regex: r"(?i)(?-u:\b)[a-z][a-z0-9+.\-]*://[A-Za-z0-9_\-]{16,}@",
        keep: Keep::UrlUserinfo,
    },
    // The user may be empty (`redis://:pw@cache`) and the password may hold
    // a `/`, but not right after a port number (`https://h:443/@scope/pkg`).
    ValuePattern {
        name: "url-password",
        triggers: &["://"],
        regex: r"(?i)(?-u:\b)[a-z][a-z0-9+.\-]*://[^\s/:@]*:(?:[^\s@/]*[^\s@/0-9][^\s@/]*(?:/[^\s@]*)?|[^\s@/]+)@",
        keep: Keep::UrlUserinfo,
    },
];
