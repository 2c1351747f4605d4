"""What Google's APIs share, for the services built on them (`calendar`, `gmail`); not itself a service: the
error envelope and its reasons (`errors`), the OAuth bearer token one account's services share (`service`),
the world's Google accounts (`accounts`), page tokens (`paging`), RFC 3339 times (`times`), ids and etags
(`ids`)."""
