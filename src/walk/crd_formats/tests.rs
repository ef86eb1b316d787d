//! kube-openapi's own format tests (`pkg/validation/strfmt/*_test.go`,
//! govalidator's cases for the functions strfmt calls), as one table of
//! valid and invalid strings per format, plus the Go behaviour each
//! written-out parser copies (sloppy IPv4 fields, durations, URIs, mail).

use super::*;

/// Per format: strings the API server accepts, then strings it refuses.
const TABLE: &[(&str, &[&str], &[&str])] = &[
    (
        "uri",
        &[
            "http://somewhere.com",
            "http://somewhereelse.com",
            "/just/a/path",
            "mailto:someone@example.com",
            "http://[::1]:8080/x",
            "http://user:pass@host:80/a%20b#frag",
            "*",
        ],
        &[
            "somewhere.com",
            "",
            "relative/path",
            ":no-scheme",
            "http://host:port/",
            "http://ho st/",
            "http://[::1/",
            "/bad%zzescape",
            "http://host/\u{7f}",
        ],
    ),
    (
        "email",
        &[
            "somebody@somewhere.com",
            "somebodyelse@somewhere.com",
            "blah@gmail.com",
            "test@d.verylongtoplevel",
            "email+tag@gmail.com",
            "\" \"@example.com",
            "\"Abc\\@def\"@example.com",
            "\"Fred Bloggs\"@example.com",
            "\"Joe\\\\Blow\"@example.com",
            "\"Abc@def\"@example.com",
            "customer/department=shipping@example.com",
            "$A12345@example.com",
            "!def!xyz%abc@example.com",
            "_somename@example.com",
            "!#$%&'*+-/=?^_`{}|~@example.com",
            "Miles.O'Brian@example.com",
            "postmaster@☁→❄→☃→☀→☺→☂→☹→✝.ws",
            "root@localhost",
            "john@com",
            "api@piston.ninja",
            "Barry Gibbs <bg@example.com>",
            "<bg@example.com>",
            "bg@example.com (Barry Gibbs)",
            "team: bg@example.com;",
            "admin@[10.0.0.1]",
        ],
        &[
            "somebody@somewhere@com",
            "",
            "no-at-sign",
            "a@b@c",
            ".a@example.com",
            "a..b@example.com",
            "a@example.com.",
            "\"\"@example.com",
            "Name <a@b",
            "a@b, c@d",
            "team: a@b, c@d;",
            "team: ;",
            "admin@[not-an-ip]",
        ],
    ),
    (
        "hostname",
        &[
            "somewhere.com",
            "888.com",
            "a.com",
            "a.b.com",
            "a.b.c.com",
            "a.b.c.d.com",
            "a.b.c.d.e.com",
            "1.com",
            "1.2.com",
            "1.2.3.com",
            "1.2.3.4.com",
            "99.domain.com",
            "99.99.domain.com",
            "1wwworg.example.com",
            "1000wwworg.example.com",
            "xn--bcher-kva.example.com",
            "xn-80ak6aa92e.co",
            "xn-80ak6aa92e.com",
            "xn--ls8h.la",
            "☁→❄→☃→☀→☺→☂→☹→✝.ws",
            "www.example.onion",
            "www.example.ôlà",
            "ôlà.ôlà",
            "ôlà.ôlà.ôlà",
            "ex$ample",
            "localhost",
            "example",
            "x",
            "x-y",
            "a.b.c.dot",
            "www.example.org",
            "a.b.c.d.e.f.g.dot",
            "ex=ample.com",
            "<foo>",
            "www.example-hyphenated.org",
            "www.詹姆斯.org",
            "www.élégigôö.org",
            "www.詹姆斯.london",
        ],
        &[
            "somewhere.com!",
            "user@email.domain",
            "1.1.1.1",
            "www.example-.org",
            "www.--example.org",
            "-www.example.org",
            "www-.example.org",
            "www.d-.org",
            "www.-d.org",
            "www-",
            "-www",
            "www.ex ample.org",
            "_www.example.org",
            "www.ex;ample.org",
            "www.example_underscored.org",
            "www.詹姆斯.x",
            "a.b.c.d",
            "-xyz",
            "xyz-",
            "x.",
            "a.b.c.dot-",
            "a.b.c.é;ö",
        ],
    ),
    (
        "ipv4",
        &[
            "192.168.254.1",
            "192.168.254.2",
            "127.0.0.1",
            "192.168.1.1",
            "192.168.1.01",
            "::ffff:1.2.3.4",
        ],
        &[
            "198.168.254.2.2",
            "1.2.3.4:8080",
            "256.1.1.1",
            "1.2.3",
            "::1",
            "",
            "not-an-ip",
        ],
    ),
    (
        "ipv6",
        &[
            "::1",
            "::2",
            "2001:db8::68",
            "::ffff:1.2.3.4",
            "1:2:3:4:5:6:7:8",
        ],
        &[
            "127.0.0.1",
            "fe80::1%eth0",
            "::ffff:1.2.3.04",
            "00001::",
            "1:2:3:4:5:6:7:8:9",
            "1::2::3",
            "1:2:3:4:5:6:7::8",
            ":1::",
            "",
        ],
    ),
    (
        "cidr",
        &[
            "192.168.254.1/24",
            "192.168.254.2/24",
            "192.0.2.1/24",
            "192.0.02.1/24",
            "2001:db8:a0b:12f0::1/32",
            "::/0",
        ],
        &[
            "198.168.254.2",
            "2001:db8:a0b:12f0::1",
            "1.2.3.4/33",
            "::/129",
            "1.2.3.4/",
            "1.2.3.4/+8",
        ],
    ),
    (
        "mac",
        &[
            "01:02:03:04:05:06",
            "06:05:04:03:02:01",
            "01-02-03-04-05-06",
            "0102.0304.0506",
            "01:02:03:04:05:06:07:08",
        ],
        &[
            "01:02:03:04:05",
            "01:02:03:04:05:0g",
            "01:02-03:04:05:06",
            "0102.0304.05060",
            "01:02:03:04:05:06:07",
        ],
    ),
    (
        "uuid",
        &[
            "a8098c1a-f86e-11da-bd1a-00112444be1e",
            "A8098C1AF86E11DABD1A00112444BE1E",
        ],
        &["not-a-uuid", "a8098c1a-f86e-11da-bd1a-00112444be1"],
    ),
    (
        "uuid3",
        &["a3bb189e-8bf9-3888-9912-ace4e6543002"],
        &["not-a-uuid", "a8098c1a-f86e-11da-bd1a-00112444be1e"],
    ),
    (
        "uuid4",
        &["f47ac10b-58cc-4372-a567-0e02b2c3d479"],
        &["not-a-uuid", "f47ac10b-58cc-4372-c567-0e02b2c3d479"],
    ),
    (
        "uuid5",
        &["886313e1-3b8a-5372-9b90-0c9aee199e5d"],
        &["not-a-uuid", "886313e1-3b8a-4372-9b90-0c9aee199e5d"],
    ),
    ("isbn", &["0321751043", "978-0321751041"], &["836217463"]),
    (
        "isbn10",
        &["0321751043", "0-321-75104-3", "080442957X"],
        &["836217463", "0321751044"],
    ),
    (
        "isbn13",
        &["978-0321751041", "978 0321751041"],
        &["978-0321751042", "0321751043"],
    ),
    (
        "hexcolor",
        &["#FFFFFF", "#000000", "fff", "#abc"],
        &["#fffffffz", "#ffff", ""],
    ),
    (
        "rgbcolor",
        &["rgb(255,255,255)", "rgb(0,0,0)", "rgb( 1 , 22 ,199 )"],
        &["rgb(300,0,0)", "rgb(01,0,0)", "rgb(0,0)"],
    ),
    (
        "ssn",
        &["111-11-1111", "999 99 9999"],
        &["999 99 999", "111111111", "111-11-11111"],
    ),
    (
        "creditcard",
        &[
            "4111-1111-1111-1111",
            "4012-8888-8888-1881",
            "4111 1111 1111 1111",
        ],
        &["9999-9999-9999-999", "4111-1111-1111-1112"],
    ),
    (
        "password",
        &[
            "super secret stuff here",
            "super secret!!!",
            "even more secret",
            "",
        ],
        &[],
    ),
    (
        "byte",
        &[
            // base64.URLEncoding of kube-openapi's test sentence.
            "VGhpcyBpcyBhIGJ5dGUgYXJyYXkgd2l0aCB1bnByaW50YWJsZSBjaGFycywgYnV0IGl0IGFsc28gaXNu",
            "YQ==",
        ],
        &["ZWxpemFiZXRocG9zZXk", "", "a-b_"],
    ),
    (
        "date",
        &["2014-12-15", "2017-12-22", "2000-02-29", "2400-02-29"],
        &[
            "yada",
            "1972/01/01",
            "2017-1-1",
            "17-13-22",
            "2017-02-29",
            "1900-02-29",
            "2100-02-29",
            "2017-13-22",
            "2017-12-32",
            "20171-12-32",
            "YYYY-MM-DD",
            "20-17-2017",
            "2017-12-22T01:02:03Z",
        ],
    ),
    (
        "date-time",
        &[
            "2014-12-15T08:00:00.000Z",
            "2011-08-18T19:03:37.000+01:00",
            "2014-12-15T19:30:20.000Z",
            "0001-01-01T00:00:00.000Z",
            "1970-01-01T00:00:00.000Z",
            "2014-12-15t19:30:20z",
        ],
        &[
            "yada",
            "zor",
            "zorg",
            "zorgTx",
            "1972-12-31Tx",
            "1972-12-31T24:40:00.000Z",
            "1972-12-31T23:63:00.000Z",
            "1972-12-31T23:59:60.000Z",
            "2014-12-15T08:00:00",
        ],
    ),
    (
        "duration",
        &[
            "0ms",
            "2ms",
            "0",
            "-1.5h",
            "1h30m",
            "1ns",
            "1us",
            "1µs",
            "1ms",
            "1s",
            "1m",
            "1h",
            "1hr",
            "1d",
            "1w",
            "1wk",
            "1nanoseconds",
            "1nanos",
            "1microseconds",
            "1micros",
            "1millis",
            "1milliseconds",
            "1second",
            "1sec",
            "1min",
            "1minute",
            "1hour",
            "1day",
            "1week",
            "1  ns",
            "1  µs",
            "1  hr",
            "1  milliseconds",
            "1  week",
            "45 weeks",
            "45 weekz",
            "12 hours",
            "12 minutes",
            // Beyond time.ParseDuration's range, taken by the fallback.
            "3000000h",
        ],
        &[
            "yada",
            "three week",
            "9999999999999999999999999999999999999999999999999999999 weeks",
            "12 parsecs",
            "12 y",
            "45 wekk",
            "45 weeekks",
            "12 phours",
            "",
            "1",
            "1.5",
        ],
    ),
    (
        "bsonobjectid",
        &["507f1f77bcf86cd799439011", "507F1F77BCF86CD799439011"],
        &["507f1f77bcf86cd79943901", "507f1f77bcf86cd79943901g", ""],
    ),
    (
        "k8s-short-name",
        &["my-name", "a", "abc-123"],
        &["-a", "a-", "My-name", "a.b", ""],
    ),
    (
        "k8s-long-name",
        &["my-name.example.com", "a", "a.b-c.d"],
        &["a..b", ".a", "A.b", "a_b", ""],
    ),
];

#[test]
fn kube_openapi_format_cases() {
    let minor = Some(Version::new(1, 34));
    for (name, valid, invalid) in TABLE {
        let format = CrdFormat::supported(name, minor).unwrap_or_else(|| panic!("{name}"));
        for value in *valid {
            assert!(format.accepts(value), "{name}: {value:?} should be valid");
        }
        for value in *invalid {
            assert!(
                !format.accepts(value),
                "{name}: {value:?} should be invalid"
            );
        }
    }
}

#[test]
fn long_host_names_and_labels_are_refused() {
    let hostname = CrdFormat::Hostname;
    assert!(!hostname.accepts(&"a".repeat(256)));
    assert!(!hostname.accepts(&format!("x.y.{}", "a".repeat(64))));
    assert!(hostname.accepts(&format!("x.y.{}", "a".repeat(63))));
    assert!(CrdFormat::K8sShortName.accepts(&"a".repeat(63)));
    assert!(!CrdFormat::K8sShortName.accepts(&"a".repeat(64)));
    let long = vec!["a".repeat(63); 4].join(".");
    assert!(long.len() > 253 && !CrdFormat::K8sLongName.accepts(&long));
}

#[test]
fn formats_by_minor_and_normalized_names() {
    let old = Some(Version::new(1, 33));
    let new = Some(Version::new(1, 34));
    assert_eq!(CrdFormat::supported("k8s-short-name", old), None);
    assert_eq!(
        CrdFormat::supported("k8s-short-name", new),
        Some(CrdFormat::K8sShortName)
    );
    assert_eq!(CrdFormat::supported("k8s-long-name", None), None);
    assert_eq!(
        CrdFormat::supported("date-time", old),
        Some(CrdFormat::DateTime)
    );
    assert_eq!(
        CrdFormat::supported("datetime", old),
        Some(CrdFormat::DateTime)
    );
    assert_eq!(CrdFormat::supported("ip-v4", None), Some(CrdFormat::Ipv4));
    // Stripped by the API server, so never validated.
    for stripped in ["int32", "double", "ip", "url", "regex", "idn-hostname"] {
        assert_eq!(CrdFormat::supported(stripped, new), None, "{stripped}");
    }
}

#[test]
fn the_api_servers_words() {
    assert_eq!(
        message("spec.addresses[0].value", "ipv4", "1.2.3.4:8080"),
        "Invalid value: \"1.2.3.4:8080\": spec.addresses[0].value in body must be of type ipv4: \"1.2.3.4:8080\""
    );
    assert_eq!(
        go_quoted("a\"b\\c\n\u{1}\u{a0}é"),
        "\"a\\\"b\\\\c\\n\\x01\\u00a0é\""
    );
}

#[test]
fn hostile_strings_get_a_verdict_never_a_panic() {
    let long = "a".repeat(100_000);
    let nested = "(".repeat(10_000);
    let odd = [
        "",
        "%",
        "%e",
        "http://[",
        "http://[é]:80",
        "http://h%é/",
        "a@[",
        "a@[1.2.3.4",
        "\"unterminated@x",
        "(comment\\é",
        "x <a@b> (c",
        "é:é:é",
        "😀.😀",
        "::ffff:1.2.3.4.5",
        "1.2.3.4/é",
        "\u{0}",
        "9999999999999999999h",
        "-",
        ".s",
        "1.é",
        "2024-01-0é",
        "2024-01-02Té",
        long.as_str(),
        nested.as_str(),
    ];
    let all = [
        "bsonobjectid",
        "uri",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "cidr",
        "mac",
        "uuid",
        "uuid3",
        "uuid4",
        "uuid5",
        "isbn",
        "isbn10",
        "isbn13",
        "creditcard",
        "ssn",
        "hexcolor",
        "rgbcolor",
        "byte",
        "password",
        "date",
        "duration",
        "datetime",
        "k8s-short-name",
        "k8s-long-name",
    ];
    for name in all {
        let format = CrdFormat::supported(name, Some(Version::new(1, 36))).expect(name);
        for value in odd {
            let _ = format.accepts(value);
        }
    }
}

/// govalidator's own cases (kube-openapi's
/// `internal/third_party/govalidator/validator_test.go`), per format.
const GOVALIDATOR: &[(&str, &[&str], &[&str])] = &[
    (
        "uri",
        &[
            "http://foo.bar/#com",
            "http://foobar.com",
            "https://foobar.com",
            "http://foobar.coffee/",
            "http://foobar.中文网/",
            "http://foobar.org/",
            "http://foobar.org:8080/",
            "ftp://foobar.ru/",
            "http://user:pass@www.foobar.com/",
            "http://127.0.0.1/",
            "http://duckduckgo.com/?q=%2F",
            "http://localhost:3000/",
            "http://foobar.com/?foo=bar#baz=qux",
            "http://foobar.com?foo=bar",
            "http://www.xn--froschgrn-x9a.net/",
            "xyz://foobar.com",
            "rtmp://foobar.com",
            "http://www.foo_bar.com/",
            "http://foobar.com/#baz=qux",
            "http://foobar.com/t$-_.+!*\\'(),",
            "http://www.foobar.com/~foobar",
            "http://www.-foobar.com/",
            "http://www.foo---bar.com/",
            "mailto:someone@example.com",
            "irc://irc.server.org/channel",
            "/abs/test/dir",
        ],
        &["", "foobar.com", "invalid.", ".com", "./rel/test/dir"],
    ),
    (
        "hexcolor",
        &["CCccCC", "fff", "#f00"],
        &["", "#ff", "fff0", "#ff12FG"],
    ),
    (
        "rgbcolor",
        &["rgb(0,31,255)", "rgb(0,  31, 255)"],
        &[
            "",
            "rgb(1,349,275)",
            "rgb(01,31,255)",
            "rgb(0.6,31,255)",
            "rgba(0,31,255)",
        ],
    ),
    (
        "creditcard",
        &[
            "4220855426222389",
            "4220 8554 2622 2389",
            "4220-8554-2622-2389",
            "5139288802098206",
            "374953669708156",
            "6011464355444102",
            "3548209662790989",
        ],
        &[
            "",
            "credit card",
            "4220855426213389",
            "30190239451016",
            "6521674451993089",
            "2204151414444676",
            "624356436327468104",
        ],
    ),
    (
        "isbn10",
        &[
            "3836221195",
            "1-61729-085-8",
            "3 423 21412 0",
            "3 401 01319 X",
        ],
        &[
            "",
            "foo",
            "3423214121",
            "978-3836221191",
            "3-423-21412-1",
            "3 423 21412 1",
        ],
    ),
    (
        "isbn13",
        &[
            "9784873113685",
            "978-4-87311-368-5",
            "978 3401013190",
            "978-3-8362-2119-1",
        ],
        &[
            "",
            "foo",
            "3-8362-2119-5",
            "01234567890ab",
            "978 3 8362 2119 0",
        ],
    ),
    (
        "isbn",
        &[
            "3836221195",
            "1-61729-085-8",
            "9784873113685",
            "978-3-8362-2119-1",
        ],
        // `978-3836221191` fails as an ISBN-10 but is a valid ISBN-13.
        &[
            "",
            "foo",
            "3423214121",
            "3 423 21412 1",
            "978 3 8362 2119 0",
        ],
    ),
    (
        "byte",
        &[
            "TG9yZW0gaXBzdW0gZG9sb3Igc2l0IGFtZXQsIGNvbnNlY3RldHVyIGFkaXBpc2NpbmcgZWxpdC4=",
            "Vml2YW11cyBmZXJtZW50dW0gc2VtcGVyIHBvcnRhLg==",
            "U3VzcGVuZGlzc2UgbGVjdHVzIGxlbw==",
        ],
        &["12345", "", "Vml2YW11cyBmZXJtZtesting123"],
    ),
    (
        "ipv6",
        &["::1", "2001:db8:0000:1:1:1:1:1"],
        &[
            "",
            "127.0.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "1.2.3.4",
            "300.0.0.0",
        ],
    ),
    (
        "mac",
        &["3D:F2:C9:A6:B3:4F"],
        &["3D-F2-C9-A6-B3:4F", "123", "", "abacaba"],
    ),
    (
        "ssn",
        &["191 60 2869", "191-60-2869"],
        &["", "00-90-8787", "66690-76"],
    ),
];

#[test]
fn govalidator_cases() {
    for (name, valid, invalid) in GOVALIDATOR {
        let format = CrdFormat::supported(name, None).unwrap_or_else(|| panic!("{name}"));
        for value in *valid {
            assert!(format.accepts(value), "{name}: {value:?} should be valid");
        }
        for value in *invalid {
            assert!(
                !format.accepts(value),
                "{name}: {value:?} should be invalid"
            );
        }
    }
}
