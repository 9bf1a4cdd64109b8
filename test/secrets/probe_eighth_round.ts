/**
 * The probe corpus's eighth batch, written before any rule was changed for it: credentials hard
 * coded in program code as people write it, across many languages. Positional arguments of
 * client constructors and login calls (JDBC, `NetworkCredential`, SMTP, FTP, SSH, HTTP basic
 * auth, database drivers, Redis), constants and enum members, map and dict literals, struct
 * initialisers, builder chains (`.password(…)`, `.setPassword(…)`), URLs and connection strings
 * built by concatenation or a format string, `user:password` turned into base64 in code, keys as
 * byte arrays, escaped strings inside generated code, and test code where real-looking values sit
 * next to obviously fake ones. The traps beside them read the value from the environment or a
 * configuration, name a field, hold a placeholder, a masked value or a hash. Every value comes from
 * a marker, so adding the batch leaves the earlier files' draws as they were.
 */
import type { Gen } from "./make_corpus.ts";
import { ALNUM, type Values } from "./corpus_values.ts";

const WORDS = ["harbor", "maple", "orbit", "candle", "falcon", "velvet", "otter", "quartz"];

/**
 * A password a developer typed into a string literal: no quote, backslash, `$` or `@`, so the
 * same value reads the same in every language's double- or single-quoted string.
 */
function typedPassword(v: Values): string {
  const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
  return v.pick([
    () => `${cap(v.pick(WORDS))}${v.pick(["!", "#", "%", "+", "."])}${v.int(100, 9999)}`,
    () => `${v.pick(WORDS)}-${v.pick(WORDS)}-${v.int(10, 99)}`,
    () => `${cap(v.pick(WORDS))}${v.int(1990, 2030)}${v.pick(["!", "%", "+"])}`,
    () => v.pick([...ALNUM]) + v.mixed(ALNUM + "!%+-_.", v.int(10, 15)),
  ])();
}

/** `n` random bytes written as a C-style initialiser list (`0x4f, 0xa2, …`). */
function byteList(v: Values, n: number): string {
  return Array.from({ length: n }, () => "0x" + v.hex(2)).join(", ");
}

/** The markers this batch adds (value generator, label kind; an empty kind is a trap). */
export function eighthRoundMarkers(v: Values): Record<string, Gen> {
  return {
    "code-pw": [() => typedPassword(v), "password"],
    "code-b64": [() => btoa(`ops:${typedPassword(v)}`), "basic-auth"],
    "key-bytes": [() => byteList(v, v.pick([16, 32])), "generic-secret"],
    // traps: tables of bytes that are not keys, digests of passwords
    "table-bytes": [() => byteList(v, 16), ""],
    "bcrypt-hash": [() => "$2a$10$" + v.mixed(ALNUM + "./", 53), ""],
    "mysql-native-hash": [() => "*" + v.hex(40).toUpperCase(), ""],
  };
}

/** The eighth batch's templates: path → text with markers (no value drawn here). */
export function eighthRoundTemplates(): Record<string, string> {
  const f: Record<string, string> = {};

  f["ledger-java/src/main/java/com/acme/ledger/db/LedgerDataSource.java"] =
    `package com.acme.ledger.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

public final class LedgerDataSource {
    private static final String URL = "jdbc:postgresql://db.internal:5432/ledger";
    private static final String API_SECRET = "⟪generic⟫";
    private static final String PASSWORD_PARAM = "password";
    private static final String PASSWORD_RESET_PATH = "/account/password/reset";

    static Connection open() throws SQLException {
        return DriverManager.getConnection(URL, "ledger_app", "⟪code-pw⟫");
    }

    static Connection openReporting() throws SQLException {
        return DriverManager.getConnection(URL, "reporting", System.getenv("REPORTING_PASSWORD"));
    }

    static Connection openLegacy() throws SQLException {
        return DriverManager.getConnection(
            "jdbc:mysql://10.0.4.12:3306/ledger?user=ledger&password=⟪db-pw⟫&useSSL=true");⟪@ip-address⟫
    }

    static HikariDataSource pool() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(URL);
        config.setUsername("ledger_app");
        config.setPassword("⟪code-pw⟫");
        config.setMaximumPoolSize(12);
        return new HikariDataSource(config);
    }

    static HikariDataSource poolFromProperties(java.util.Properties props) {
        HikariConfig config = new HikariConfig();
        config.setPassword(props.getProperty("db.password"));
        return new HikariDataSource(config);
    }
}
`;

  f["ledger-java/src/main/java/com/acme/ledger/notify/MailSender.java"] =
    `package com.acme.ledger.notify;

import jakarta.mail.Authenticator;
import jakarta.mail.PasswordAuthentication;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

final class MailSender {
    private static final byte[] WEBHOOK_SIGNING_KEY = "⟪generic⟫".getBytes(StandardCharsets.UTF_8);

    Authenticator authenticator() {
        return new Authenticator() {
            @Override
            protected PasswordAuthentication getPasswordAuthentication() {
                return new PasswordAuthentication("alerts@acme-corp.io", "⟪code-pw⟫");⟪@email⟫
            }
        };
    }

    HttpRequest.Builder statusRequest() {
        String basic = Base64.getEncoder().encodeToString("ops:⟪code-pw⟫".getBytes(StandardCharsets.UTF_8));
        return HttpRequest.newBuilder().header("Authorization", "Basic " + basic);
    }

    HttpRequest.Builder exportRequest() {
        return HttpRequest.newBuilder().header("Authorization", "Basic ⟪code-b64⟫");
    }

    HttpRequest.Builder userRequest(String user, String pass) {
        String basic = Base64.getEncoder().encodeToString((user + ":" + pass).getBytes(StandardCharsets.UTF_8));
        return HttpRequest.newBuilder().header("Authorization", "Basic " + basic);
    }
}
`;

  f["ledger-java/src/main/java/com/acme/ledger/infra/Clients.java"] =
    `package com.acme.ledger.infra;

import com.mongodb.MongoCredential;
import com.rabbitmq.client.ConnectionFactory;
import io.lettuce.core.RedisURI;
import java.util.Properties;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

final class Clients {
    static S3Client s3() {
        return S3Client.builder()
            .credentialsProvider(StaticCredentialsProvider.create(
                AwsBasicCredentials.create("⟪aws-id⟫",
                    "⟪aws-secret⟫")))
            .build();
    }

    static MongoCredential mongo() {
        return MongoCredential.createCredential("ledger", "admin", "⟪code-pw⟫".toCharArray());
    }

    static RedisURI redis() {
        return RedisURI.builder().withHost("cache.internal").withPassword("⟪code-pw⟫".toCharArray()).build();
    }

    static RedisURI redisFromEnv() {
        return RedisURI.builder().withHost("cache.internal").withPassword(System.getenv("REDIS_PASSWORD").toCharArray()).build();
    }

    static ConnectionFactory rabbit() {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("mq.internal");
        factory.setUsername("ledger");
        factory.setPassword("⟪code-pw⟫");
        return factory;
    }

    static Properties kafka() {
        Properties props = new Properties();
        props.put("security.protocol", "SASL_SSL");
        props.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\\"ledger\\" password=\\"⟪code-pw⟫\\";");
        props.put("ssl.truststore.password", System.getenv("TRUSTSTORE_PASSWORD"));
        return props;
    }

    static String amqpUrl(String host) {
        return String.format("amqp://%s:%s@%s:5672/ledger", "ledger", "⟪code-pw⟫", host);
    }

    enum Region {
        EU("https://eu.api.acme-corp.io", "⟪generic⟫"),
        US("https://us.api.acme-corp.io", "⟪generic⟫"),
        LOCAL("http://localhost:8080", "dev-key");

        final String baseUrl;
        final String apiKey;

        Region(String baseUrl, String apiKey) {
            this.baseUrl = baseUrl;
            this.apiKey = apiKey;
        }
    }
}
`;

  f["ledger-android/app/src/main/java/com/acme/ledger/net/ApiConstants.kt"] =
    `package com.acme.ledger.net

import okhttp3.Credentials
import okhttp3.OkHttpClient
import okhttp3.Request

object ApiConstants {
    const val BASE_URL = "https://api.acme-corp.io/"
    const val API_SECRET = "⟪generic⟫"
    const val PREF_PASSWORD = "pref_password"
    const val KEY_AUTH_TOKEN = "auth_token"
    private const val MAPS_KEY = "⟪gcp-key⟫"
}

fun statusRequest(): Request = Request.Builder()
    .url("https://status.acme-corp.io/v1/health")
    .header("Authorization", Credentials.basic("status", "⟪code-pw⟫"))
    .build()

fun exportRequest(token: String): Request = Request.Builder()
    .url("https://api.acme-corp.io/v1/export")
    .addHeader("X-Api-Key", "⟪generic⟫")
    .addHeader("Authorization", "Bearer $token")
    .build()

val client = OkHttpClient.Builder().authenticator { _, response ->
    response.request.newBuilder().header("Authorization", Credentials.basic("proxy", BuildConfig.PROXY_PASSWORD)).build()
}.build()
`;

  f["ledger-android/app/src/test/java/com/acme/ledger/LoginRepositoryTest.kt"] =
    `package com.acme.ledger

import org.junit.Assert.assertEquals
import org.junit.Test

class LoginRepositoryTest {
    private val fakePassword = "password123"
    private val stagingApiKey = "⟪generic⟫"

    @Test
    fun rejectsWrongPassword() {
        val repo = LoginRepository(FakeApi())
        assertEquals(LoginResult.Denied, repo.login("alice", "wrong-password"))
        assertEquals(LoginResult.Denied, repo.login("alice", fakePassword))
    }

    @Test
    fun logsInAgainstStaging() {
        val repo = LoginRepository(StagingApi(apiKey = stagingApiKey))
        assertEquals(LoginResult.Ok, repo.login("qa-bot@acme-corp.io", "⟪code-pw⟫"))⟪@email⟫
    }
}
`;

  f["ledger-scala/src/main/scala/com/acme/ledger/Db.scala"] = `package com.acme.ledger

import akka.http.scaladsl.model.headers.BasicHttpCredentials
import slick.jdbc.PostgresProfile.api._

object Db {
  val db = Database.forURL(
    "jdbc:postgresql://db.internal/ledger",
    user = "ledger",
    password = "⟪code-pw⟫",
    driver = "org.postgresql.Driver"
  )

  val reporting = Database.forURL("jdbc:postgresql://db-ro.internal/ledger", "reporting", sys.env("REPORTING_PASSWORD"))

  val opsCredentials = BasicHttpCredentials("ops", "⟪code-pw⟫")

  private val signingSecret: String = "⟪generic⟫"

  val settings: Map[String, String] = Map(
    "user" -> "ledger",
    "password" -> "⟪code-pw⟫",
    "passwordHint" -> "twelve characters or more"
  )
}
`;

  f["Ledger.Service/Infrastructure/LedgerClient.cs"] = `using System;
using System.Data.SqlClient;
using System.Net;
using System.Net.Mail;

namespace Ledger.Service.Infrastructure
{
    public sealed class LedgerClient
    {
        private const string ApiKey = "⟪generic⟫";
        private const string PasswordFieldName = "password";

        public static SqlConnection Open() =>
            new SqlConnection("Server=sql01.internal;Database=Ledger;User Id=ledger;Password=⟪code-pw⟫;");

        public static SqlConnection OpenFor(string host) =>
            new SqlConnection($"Server={host};Database=Ledger;User Id=ledger;Password=⟪code-pw⟫;Encrypt=true");

        public static WebClient Share()
        {
            var client = new WebClient();
            client.Credentials = new NetworkCredential("svc_ledger", "⟪code-pw⟫", "ACME");
            return client;
        }

        public static WebClient ShareFromEnv() => new WebClient
        {
            Credentials = new NetworkCredential("svc_ledger", Environment.GetEnvironmentVariable("SVC_PASSWORD")),
        };

        public static SmtpClient Mail() => new SmtpClient("smtp.acme-corp.io", 587)
        {
            EnableSsl = true,
            Credentials = new NetworkCredential("alerts@acme-corp.io", "⟪code-pw⟫"),⟪@email⟫
        };

        public static readonly (string User, string Password) Fallback = ("ops", "⟪code-pw⟫");
    }
}
`;

  f["Ledger.Service/Properties/Settings.Designer.cs"] =
    `//------------------------------------------------------------------------------
// <auto-generated>
//     This code was generated by a tool.
// </auto-generated>
//------------------------------------------------------------------------------

namespace Ledger.Service.Properties {
    internal sealed partial class Settings : global::System.Configuration.ApplicationSettingsBase {
        [global::System.Configuration.ApplicationScopedSettingAttribute()]
        [global::System.Configuration.DefaultSettingValueAttribute("Data Source=sql02.internal;Initial Catalog=Ledger;User ID=sa;Password=⟪code-pw⟫")]
        public string LedgerConnection {
            get { return ((string)(this["LedgerConnection"])); }
        }

        [global::System.Configuration.ApplicationScopedSettingAttribute()]
        [global::System.Configuration.DefaultSettingValueAttribute("{\\"clientId\\":\\"ledger-web\\",\\"clientSecret\\":\\"⟪generic⟫\\"}")]
        public string OAuthClient {
            get { return ((string)(this["OAuthClient"])); }
        }

        [global::System.Configuration.ApplicationScopedSettingAttribute()]
        [global::System.Configuration.DefaultSettingValueAttribute("{\\"clientId\\":\\"ledger-web\\",\\"clientSecret\\":\\"\\"}")]
        public string OAuthClientTemplate {
            get { return ((string)(this["OAuthClientTemplate"])); }
        }
    }
}
`;

  f["LedgerTools/Module1.vb"] = `Imports System.Configuration
Imports System.Data.OleDb
Imports System.Net

Module Module1
    Private Const API_TOKEN As String = "⟪generic⟫"
    Private Const PASSWORD_PROMPT As String = "Enter your password"

    Sub Main()
        Dim cred As New NetworkCredential("ledger", "⟪code-pw⟫")
        Dim conn As New OleDbConnection()
        conn.ConnectionString = "Provider=SQLOLEDB;Data Source=sql01;User ID=ledger;Password=⟪code-pw⟫;"
        Dim token As String = ConfigurationManager.AppSettings("ApiToken")
        Dim fromEnv As New NetworkCredential("ledger", Environment.GetEnvironmentVariable("LEDGER_PASSWORD"))
    End Sub
End Module
`;

  f["ledger-go/internal/store/store.go"] = `package store

import (
	"database/sql"
	"net/smtp"
	"os"

	"github.com/redis/go-redis/v9"
)

var jwtKey = []byte("⟪generic⟫")

type DBConfig struct {
	Host     string
	User     string
	Password string
}

var prod = DBConfig{Host: "db.internal", User: "ledger", Password: "⟪code-pw⟫"}

var local = DBConfig{Host: "localhost", User: "ledger", Password: os.Getenv("DB_PASSWORD")}

func Open() (*sql.DB, error) {
	return sql.Open("postgres", "host=db.internal user=ledger password=⟪code-pw⟫ dbname=ledger sslmode=require")
}

func OpenMySQL() (*sql.DB, error) {
	return sql.Open("mysql", "ledger:⟪db-pw⟫@tcp(10.0.4.12:3306)/ledger?parseTime=true")⟪@ip-address⟫
}

func Cache() *redis.Client {
	return redis.NewClient(&redis.Options{
		Addr:     "cache.internal:6379",
		Password: "⟪code-pw⟫",
		DB:       0,
	})
}

func CacheFromEnv() *redis.Client {
	return redis.NewClient(&redis.Options{Addr: "cache.internal:6379", Password: os.Getenv("REDIS_PASSWORD")})
}

func MailAuth() smtp.Auth {
	return smtp.PlainAuth("", "alerts@acme-corp.io", "⟪code-pw⟫", "smtp.acme-corp.io")⟪@email⟫
}
`;

  f["ledger-go/internal/client/client_test.go"] = `package client

import (
	"net/http"
	"testing"
)

const testToken = "test-token"

func TestExportAgainstStaging(t *testing.T) {
	c := New("https://staging.api.acme-corp.io", "⟪generic⟫")
	if _, err := c.Export(); err != nil {
		t.Fatal(err)
	}
}

func TestBasicAuth(t *testing.T) {
	req, _ := http.NewRequest("GET", "https://staging.api.acme-corp.io/v1/me", nil)
	req.SetBasicAuth("admin", "admin")
	req.SetBasicAuth("ops", "⟪code-pw⟫")
	req.Header.Set("Authorization", "Bearer "+testToken)
}
`;

  f["ledger-rs/src/main.rs"] = `use lettre::transport::smtp::authentication::Credentials;
use sqlx::postgres::PgPoolOptions;
use std::env;

const HMAC_KEY: &[u8] = b"⟪generic⟫";

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let pool = PgPoolOptions::new()
        .max_connections(5)
        .connect("postgres://ledger:⟪db-pw⟫@db.internal/ledger")
        .await?;
    let mail = Credentials::new("alerts@acme-corp.io".to_string(), "⟪code-pw⟫".to_string());⟪@email⟫
    let http = reqwest::Client::new();
    let status = http
        .get("https://status.acme-corp.io/v1/health")
        .basic_auth("ops", Some("⟪code-pw⟫"))
        .send()
        .await?;
    let export = http
        .get("https://api.acme-corp.io/v1/export")
        .basic_auth("ops", Some(env::var("OPS_PASSWORD")?))
        .send()
        .await?;
    Ok(())
}
`;

  f["ledger-c/src/config.h"] = `#ifndef LEDGER_CONFIG_H
#define LEDGER_CONFIG_H

#include <stdint.h>

#define DB_HOST "db.internal"
#define DB_USER "ledger"
#define DB_PASS "⟪code-pw⟫"
#define PASSWORD_MAX_LEN 128
#define API_TOKEN_ENV "LEDGER_API_TOKEN"

static const uint8_t aes_key[] = { ⟪key-bytes⟫ };
static const uint8_t crc_seed_table[16] = { ⟪table-bytes⟫ };

#endif
`;

  f["ledger-c/src/db.c"] = `#include <mysql/mysql.h>
#include <stdlib.h>
#include <curl/curl.h>
#include "config.h"

MYSQL *open_db(void) {
    MYSQL *conn = mysql_init(NULL);
    return mysql_real_connect(conn, "db.internal", "ledger", "⟪code-pw⟫", "ledger", 3306, NULL, 0);
}

MYSQL *open_db_env(void) {
    MYSQL *conn = mysql_init(NULL);
    return mysql_real_connect(conn, DB_HOST, DB_USER, getenv("DB_PASS"), "ledger", 3306, NULL, 0);
}

void upload(CURL *curl, const char *userpwd) {
    curl_easy_setopt(curl, CURLOPT_USERPWD, "backup:⟪code-pw⟫");
    curl_easy_setopt(curl, CURLOPT_USERPWD, userpwd);
    curl_easy_setopt(curl, CURLOPT_URL, "ftp://backup:" "⟪db-pw⟫" "@ftp.acme-corp.io/ledger/");
}
`;

  f["ledger-cpp/src/client.cpp"] = `#include <string>
#include <curl/curl.h>

namespace ledger {

static const std::string kApiKey = "⟪generic⟫";
static const char* kPasswordHeader = "X-Password-Policy";

std::string export_url(const std::string& host) {
    return "https://ops:" + std::string("⟪db-pw⟫") + "@" + host + "/v1/export";
}

void login(CURL* curl) {
    curl_easy_setopt(curl, CURLOPT_USERNAME, "ops");
    curl_easy_setopt(curl, CURLOPT_PASSWORD, "⟪code-pw⟫");
}

}  // namespace ledger
`;

  f["ledger-php/src/Db.php"] = `<?php

namespace Ledger;

use PDO;
use PHPMailer\\PHPMailer\\PHPMailer;

final class Db
{
    public static function legacy()
    {
        return mysqli_connect('db.internal', 'ledger', '⟪code-pw⟫', 'ledger');
    }

    public static function pdo(): PDO
    {
        return new PDO('mysql:host=db.internal;dbname=ledger', 'ledger', '⟪code-pw⟫');
    }

    public static function fromEnv(): PDO
    {
        return new PDO(getenv('DB_DSN'), getenv('DB_USER'), getenv('DB_PASS'));
    }

    public static function mailer(): PHPMailer
    {
        $mail = new PHPMailer(true);
        $mail->Host = 'smtp.acme-corp.io';
        $mail->Username = 'alerts@acme-corp.io';⟪@email⟫
        $mail->Password = '⟪code-pw⟫';
        return $mail;
    }

    public static function payments(): void
    {
        \\Stripe\\Stripe::setApiKey('⟪stripe⟫');
    }

    private const OPTIONS = [
        'api_user' => 'ledger',
        'api_password' => '⟪code-pw⟫',
        'password_min_length' => 12,
    ];
}
`;

  f["ledger-rb/lib/ledger/clients.rb"] = `require "net/smtp"
require "net/ftp"
require "pg"
require "redis"
require "stripe"

module Ledger
  module Clients
    Stripe.api_key = "⟪stripe⟫"

    def self.mail(message)
      Net::SMTP.start("smtp.acme-corp.io", 587, "acme-corp.io", "alerts", "⟪code-pw⟫", :login) do |smtp|
        smtp.send_message(message, "alerts@acme-corp.io", "ops@acme-corp.io")⟪@email⟫⟪@email⟫
      end
    end

    def self.db
      PG.connect(host: "db.internal", user: "ledger", password: "⟪code-pw⟫", dbname: "ledger")
    end

    def self.db_from_env
      PG.connect(host: "db.internal", user: "ledger", password: ENV.fetch("PG_PASSWORD"))
    end

    def self.cache
      Redis.new(url: "redis://:⟪db-pw⟫@cache.internal:6379/0")
    end

    def self.backup(path)
      Net::FTP.open("ftp.acme-corp.io", "backup", "⟪code-pw⟫") { |ftp| ftp.putbinaryfile(path) }
    end

    ADMIN = { login: "admin", password: "⟪code-pw⟫" }.freeze
    MASKED = { login: "admin", password: "********" }.freeze
  end
end
`;

  f["ledger-py/ledger/jobs/nightly.py"] = `import ftplib
import getpass
import os
import smtplib

import boto3
import paramiko
import psycopg2
import redis
import requests


def mail(report):
    with smtplib.SMTP("smtp.acme-corp.io", 587) as smtp:
        smtp.starttls()
        smtp.login("alerts@acme-corp.io", "⟪code-pw⟫")⟪@email⟫
        smtp.send_message(report)


def mail_from_env(report):
    with smtplib.SMTP("smtp.acme-corp.io", 587) as smtp:
        smtp.login(os.environ["SMTP_USER"], os.environ["SMTP_PASSWORD"])


def upload(path):
    ftp = ftplib.FTP("ftp.acme-corp.io")
    ftp.login("backup", "⟪code-pw⟫")


def bastion():
    ssh = paramiko.SSHClient()
    ssh.connect("bastion.acme-corp.io", username="ops", password="⟪code-pw⟫")
    ssh.connect("bastion.acme-corp.io", username="ops", password=getpass.getpass())


def status():
    requests.get("https://status.acme-corp.io/v1/health", auth=("ops", "⟪code-pw⟫"), timeout=10)
    requests.get("https://status.acme-corp.io/v1/me", auth=("user", "pass"), timeout=10)


def db():
    a = psycopg2.connect(host="db.internal", user="etl", password="⟪code-pw⟫", dbname="ledger")
    b = psycopg2.connect("dbname=ledger user=etl password=⟪code-pw⟫ host=db.internal")
    return a, b


def db_url(user, host):
    return f"postgresql://{user}:⟪db-pw⟫@{host}/ledger"


def cache():
    return redis.Redis(host="cache.internal", port=6379, password="⟪code-pw⟫")


def s3():
    return boto3.client(
        "s3",
        aws_access_key_id="⟪aws-id⟫",
        aws_secret_access_key="⟪aws-secret⟫",
    )


def s3_from_profile():
    return boto3.Session(profile_name="ledger").client("s3")
`;

  f["ledger-py/ledger/sync/mysql_sync.py"] = `import pymysql

DEFAULTS = {
    "host": "db.internal",
    "user": "ledger",
    "passwd": "⟪code-pw⟫",
    "db": "ledger",
}

PLACEHOLDERS = {"user": "ledger", "passwd": "<your-password>"}


def connect():
    return pymysql.connect("db.internal", "ledger", "⟪code-pw⟫", "ledger")


def connect_defaults():
    return pymysql.connect(**DEFAULTS)
`;

  f["ledger-py/tests/test_api.py"] = `import os
from unittest import mock

from ledger.api import Client, hash_password

API_KEY = "test"
STAGING_KEY = "⟪generic⟫"


@mock.patch.dict(os.environ, {"API_TOKEN": "dummy-token"})
def test_env_token():
    assert Client().token == "dummy-token"


def test_staging_export():
    client = Client(api_key=STAGING_KEY, secret="⟪generic⟫")
    assert client.export()


def test_hash():
    assert hash_password("hunter2").startswith("$2b$")
    assert hash_password("hunter2") != "⟪bcrypt-hash⟫"
`;

  f["ledger-node/src/server.js"] = `const mongoose = require("mongoose");
const nodemailer = require("nodemailer");
const { Pool } = require("pg");
const axios = require("axios");

mongoose.connect("mongodb+srv://ledger:⟪db-pw⟫@cluster0.x7k2p.mongodb.net/ledger");

const transport = nodemailer.createTransport({
  host: "smtp.acme-corp.io",
  port: 587,
  auth: { user: "alerts@acme-corp.io", pass: "⟪code-pw⟫" },⟪@email⟫
});

const envTransport = nodemailer.createTransport({
  host: "smtp.acme-corp.io",
  auth: { user: process.env.SMTP_USER, pass: process.env.SMTP_PASS },
});

const pool = new Pool({ host: "db.internal", user: "ledger", password: "⟪code-pw⟫", database: "ledger" });

async function status() {
  return axios.get("https://status.acme-corp.io/v1/health", {
    auth: { username: "ops", password: "⟪code-pw⟫" },
  });
}

function exportUrl(host) {
  return \`https://ops:⟪db-pw⟫@\${host}/v1/export\`;
}

const example = { user: "ledger", password: "<your-password>" };

module.exports = { transport, envTransport, pool, status, exportUrl, example };
`;

  f["ledger-node/src/clients.ts"] = `import { Octokit } from "@octokit/rest";
import OpenAI from "openai";

export const github = new Octokit({ auth: "⟪gh-pat⟫" });
export const openai = new OpenAI({ apiKey: "⟪openai⟫" });

export const statusHeaders = {
  Authorization: "Basic " + Buffer.from("ops:⟪code-pw⟫").toString("base64"),
};

export const exportHeaders = { Authorization: \`Basic \${btoa("deploy:⟪code-pw⟫")}\` };

export function basicFor(user: string, pass: string): string {
  return "Basic " + Buffer.from(\`\${user}:\${pass}\`).toString("base64");
}

export const fromEnv = new OpenAI({ apiKey: process.env.OPENAI_API_KEY });
`;

  f["LedgerApp/Sources/Networking/APIClient.swift"] = `import Foundation

final class APIClient {
    private let token = "⟪generic⟫"
    private let tokenFromEnv = ProcessInfo.processInfo.environment["API_TOKEN"]
    static let clientSecret = "⟪generic⟫"
    static let passwordKey = "ledger.password"

    func credential() -> URLCredential {
        URLCredential(user: "ops", password: "⟪code-pw⟫", persistence: .forSession)
    }

    func keychainCredential() -> URLCredential? {
        guard let password = Keychain.read(key: APIClient.passwordKey) else { return nil }
        return URLCredential(user: "ops", password: password, persistence: .forSession)
    }
}
`;

  f["LedgerApp/Classes/AppDelegate.m"] = `#import "AppDelegate.h"

static NSString * const kAPISecret = @"⟪generic⟫";
static NSString * const kPasswordKey = @"password";
#define SERVER_PASSWORD @"⟪code-pw⟫"

@implementation AppDelegate

- (NSURLCredential *)credential {
    return [NSURLCredential credentialWithUser:@"ops" password:@"⟪code-pw⟫" persistence:NSURLCredentialPersistenceForSession];
}

- (NSString *)storedPassword {
    return [[NSUserDefaults standardUserDefaults] stringForKey:kPasswordKey];
}

@end
`;

  f["ledger_app/lib/services/api.dart"] = `import 'package:http/http.dart' as http;
import 'package:mysql1/mysql1.dart';

const _password = '⟪code-pw⟫';
const _apiKeyFromBuild = String.fromEnvironment('API_KEY');

Future<http.Response> export() => http.get(
      Uri.parse('https://api.acme-corp.io/v1/export'),
      headers: {'Authorization': 'Bearer ⟪generic⟫'},
    );

Future<MySqlConnection> open() => MySqlConnection.connect(ConnectionSettings(
      host: 'db.internal',
      user: 'ledger',
      password: '⟪code-pw⟫',
      db: 'ledger',
    ));
`;

  f["ledger_ex/lib/ledger/clients.ex"] = `defmodule Ledger.Clients do
  @moduledoc "Clients of the services the ledger talks to."

  @api_secret "⟪generic⟫"
  @password_field "password"

  def db do
    Postgrex.start_link(hostname: "db.internal", username: "ledger", password: "⟪code-pw⟫", database: "ledger")
  end

  def db_from_env do
    Postgrex.start_link(hostname: "db.internal", username: "ledger", password: System.get_env("PG_PASSWORD"))
  end

  def status do
    Req.get!("https://status.acme-corp.io/v1/health", auth: {:basic, "ops:⟪code-pw⟫"})
  end
end
`;

  f["ledger-perl/bin/sync.pl"] = `#!/usr/bin/perl
use strict;
use warnings;
use DBI;
use Net::FTP;
use LWP::UserAgent;

my $dbh = DBI->connect("dbi:Pg:dbname=ledger;host=db.internal", "ledger", '⟪code-pw⟫', { RaiseError => 1 });
my $env_dbh = DBI->connect("dbi:Pg:dbname=ledger", "ledger", $ENV{DB_PASS});

my $ftp = Net::FTP->new("ftp.acme-corp.io") or die "cannot connect";
$ftp->login("backup", '⟪code-pw⟫');

my %config = (
    api_key => '⟪generic⟫',
    user    => 'ops',
);

my $ua = LWP::UserAgent->new;
$ua->credentials("api.acme-corp.io:443", "Ledger", "ops", '⟪code-pw⟫');
`;

  f["ops/Deploy-Ledger.ps1"] = `param([string]$Environment = "prod")

$secure = ConvertTo-SecureString "⟪code-pw⟫" -AsPlainText -Force
$cred = New-Object System.Management.Automation.PSCredential ("ACME\\svc_deploy", $secure)
$envSecure = ConvertTo-SecureString $env:SVC_PASSWORD -AsPlainText -Force
$typed = Read-Host -AsSecureString "Password"

$headers = @{ Authorization = "Bearer ⟪generic⟫" }
Invoke-RestMethod -Uri "https://api.acme-corp.io/v1/deploy" -Headers @{ "X-Api-Key" = "⟪generic⟫" } -Method Post

$smtp = New-Object Net.Mail.SmtpClient("smtp.acme-corp.io", 587)
$smtp.Credentials = New-Object Net.NetworkCredential("alerts@acme-corp.io", "⟪code-pw⟫")⟪@email⟫
`;

  f["openresty/lua/ledger.lua"] = `local redis = require "resty.redis"
local mysql = require "resty.mysql"

local API_KEY = "⟪generic⟫"

local function cache()
  local red = redis:new()
  red:connect("cache.internal", 6379)
  local ok, err = red:auth("⟪code-pw⟫")
  local ok2 = red:auth(os.getenv("REDIS_PASSWORD"))
  return red
end

local function db()
  local conn = mysql:new()
  conn:connect({ host = "db.internal", port = 3306, user = "ledger", password = "⟪code-pw⟫", database = "ledger" })
  return conn
end
`;

  f["reports/ledger_report.R"] = `library(httr)
library(DBI)

resp <- GET("https://api.acme-corp.io/v1/export", authenticate("ops", "⟪code-pw⟫"))
con <- dbConnect(odbc::odbc(), .connection_string = "Driver={PostgreSQL};Server=db.internal;Uid=etl;Pwd=⟪code-pw⟫;")
con2 <- dbConnect(RMariaDB::MariaDB(), user = "etl", password = keyring::key_get("ledger-db"), host = "db.internal")
`;

  f["db/migrations/0042_roles.sql"] = `-- Roles for the ledger services.
CREATE USER ledger_app WITH PASSWORD '⟪code-pw⟫';
ALTER ROLE reporting WITH LOGIN PASSWORD '⟪code-pw⟫';
ALTER ROLE archive PASSWORD 'md5⟪hex32⟫';
ALTER ROLE retired PASSWORD NULL;
CREATE USER MAPPING FOR ledger_app SERVER legacy OPTIONS (user 'ledger', password '⟪code-pw⟫');
-- MySQL side
CREATE USER 'etl'@'%' IDENTIFIED BY '⟪code-pw⟫';
ALTER USER 'backup'@'localhost' IDENTIFIED WITH mysql_native_password AS '⟪mysql-native-hash⟫';
-- SQL Server side
CREATE LOGIN ledger_etl WITH PASSWORD = '⟪code-pw⟫', CHECK_POLICY = ON;
`;

  f["jenkins/vars/ledgerDb.groovy"] = `import groovy.sql.Sql

def call() {
    def sql = Sql.newInstance("jdbc:postgresql://db.internal/ledger", "ledger", "⟪code-pw⟫", "org.postgresql.Driver")
    def token = "⟪gh-pat⟫"
    withCredentials([usernamePassword(credentialsId: 'ledger-db', usernameVariable: 'DB_USER', passwordVariable: 'DB_PASS')]) {
        def fromCreds = Sql.newInstance("jdbc:postgresql://db.internal/ledger", env.DB_USER, env.DB_PASS, "org.postgresql.Driver")
    }
    return sql
}
`;

  return f;
}
