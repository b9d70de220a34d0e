"""Caged Rats: red against black, bidding for captures to feed two caged rats exactly."""
