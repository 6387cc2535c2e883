"""Shared fixtures: a store on a temporary database, the CLI runner, fixture games."""
