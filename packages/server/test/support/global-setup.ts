export default function setup() {
  if (!process.env.BROKER_TEST_POSTGRES_URL) {
    process.stdout.write("\n[toolbroker] PostgreSQL tests are SKIPPED: set BROKER_TEST_POSTGRES_URL to run them.\n\n");
  } else {
    process.stdout.write(`\n[toolbroker] PostgreSQL tests run against ${new URL(process.env.BROKER_TEST_POSTGRES_URL).host}.\n\n`);
  }
}
