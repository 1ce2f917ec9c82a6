"""Accounts: sign-up, log-in with throttled failures, password change and reset, account deletion.

Django's auth views do the work; this package adds the failure throttle (shared by the log-in
page, the admin and HTTP Basic on the API through one authentication backend) and deletion.
"""
