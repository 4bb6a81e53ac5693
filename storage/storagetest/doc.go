// Package storagetest holds what tests need to check Trailpin's database
// from outside: SQLite's integrity and foreign-key checks, and the secret
// scan of a database file, its -wal and -shm and its stored values
// (screens decompressed). Tests of storage, host and e2e use it.
//
// Product code never imports it: it opens the database on its own
// connection and reads every table.
package storagetest
