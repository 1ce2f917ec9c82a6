"""Accounts: sign-up, log-in with throttled failures, password change and reset, account deletion,
and personal access tokens for the API.

Django's auth views do the work; this package adds the failed log-in limits (shared by the log-in
page, the admin and account deletion through one authentication backend), deletion, and the tokens.
"""
