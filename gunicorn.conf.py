"""gunicorn's settings for the app, wherever it is launched (docs/operations.md, README, the fault tests, the
benches): `gunicorn -c gunicorn.conf.py config.wsgi ...` (the command line adds the address and the workers).

limit_request_line: a search query may have MAX_QUERY_LENGTH (1,000) characters (cards/search/parser.py). In a URL
each character is percent-encoded from up to 4 bytes of UTF-8, so a query at the limit makes a request line of up to
12,000 bytes and more, where gunicorn's default (4,094) answers its own undocumented 414 and its finite maximum is
8,190. 0 takes gunicorn's limit away: the application answers every query, a longer one with its own 400 naming the
limit, and the TLS proxy in front bounds the request line (nginx: `large_client_header_buffers 4 16k`).
"""

limit_request_line = 0
