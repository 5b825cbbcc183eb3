"""Domain-specific configuration (keystone/resource/core.py's
``DomainConfigManager``, keystone/api/domains.py): a domain's options of
the ``identity`` and ``ldap`` groups, as data only (no LDAP backend reads
them); ``ldap.password`` is sensitive, kept but never shown. The texts of
keystone's ``InvalidDomainConfig`` (403) and ``DomainConfigNotFound``
(404)."""

import json
from typing import Any

from occli.localcloud import errors

# keystone's whitelisted options with their defaults (keystone/conf/identity.py,
# keystone/conf/ldap.py), in keystone's order
DEFAULTS: dict[str, dict[str, Any]] = {
    "identity": {"driver": "sql", "list_limit": None},
    "ldap": {
        "url": "ldap://localhost",
        "user": None,
        "suffix": "cn=example,cn=com",
        "query_scope": "one",
        "page_size": 0,
        "alias_dereferencing": "default",
        "debug_level": None,
        "chase_referrals": None,
        "user_tree_dn": None,
        "user_filter": None,
        "user_objectclass": "inetOrgPerson",
        "user_id_attribute": "cn",
        "user_name_attribute": "sn",
        "user_mail_attribute": "mail",
        "user_description_attribute": "description",
        "user_pass_attribute": "userPassword",
        "user_enabled_attribute": "enabled",
        "user_enabled_invert": False,
        "user_enabled_mask": 0,
        "user_enabled_default": "True",
        "user_attribute_ignore": ["default_project_id"],
        "user_default_project_id_attribute": None,
        "user_enabled_emulation": False,
        "user_enabled_emulation_dn": None,
        "user_enabled_emulation_use_group_config": False,
        "user_additional_attribute_mapping": [],
        "group_tree_dn": None,
        "group_filter": None,
        "group_objectclass": "groupOfNames",
        "group_id_attribute": "cn",
        "group_name_attribute": "ou",
        "group_members_are_ids": False,
        "group_member_attribute": "member",
        "group_desc_attribute": "description",
        "group_attribute_ignore": [],
        "group_additional_attribute_mapping": [],
        "tls_cacertfile": None,
        "tls_cacertdir": None,
        "use_tls": False,
        "tls_req_cert": "demand",
        "use_pool": True,
        "pool_size": 10,
        "pool_retry_max": 3,
        "pool_retry_delay": 0.1,
        "pool_connection_timeout": -1,
        "pool_connection_lifetime": 600,
        "use_auth_pool": True,
        "auth_pool_size": 100,
        "auth_pool_connection_lifetime": 60,
    },
}
SENSITIVE = {"identity": (), "ldap": ("password",)}


def invalid(reason):
    return errors.Forbidden("Invalid domain specific configuration: %s." % reason)


def not_found(domain_id, what):
    return errors.NotFound(
        "Could not find %s in domain configuration for domain %s." % (what, domain_id)
    )


def _what(group=None, option=None):
    if option:
        return "option %s in group %s" % (option, group)
    return "group %s" % group if group else "any options"


def check_group_option(group=None, option=None):
    """keystone's ``_assert_valid_group_and_option``."""
    if group and group not in DEFAULTS:
        raise invalid("Group %s is not supported for domain specific configurations" % group)
    if option and option not in DEFAULTS[group] and option not in SENSITIVE[group]:
        raise invalid(
            "Option %s in group %s is not supported for domain specific configurations"
            % (option, group)
        )


def check_config(config):
    """keystone's ``_assert_valid_config``."""
    if not config or not isinstance(config, dict):
        raise invalid("No options specified")
    for group, options in config.items():
        if not options or not isinstance(options, dict):
            raise invalid(
                "The value of group %s specified in the config should be a dictionary of"
                " options" % group
            )
        for option in options:
            check_group_option(group, option)


def _rows(db, domain_id):
    return db.execute(
        "SELECT * FROM domain_configs WHERE domain_id = ? ORDER BY rowid", (domain_id,)
    ).fetchall()


def get(db, domain_id, group=None, option=None):
    """The shown config (sensitive options left out), or of a group, or
    ``{option: value}``; NotFound when empty."""
    check_group_option(group, option)
    config: dict = {}
    for row in _rows(db, domain_id):
        if row["sensitive"]:
            continue
        config.setdefault(row["group_name"], {})[row["option"]] = json.loads(row["value"])
    if group:
        config = {group: config[group]} if group in config else {}
        if option:
            config = {option: config[group][option]} if option in config.get(group, {}) else {}
    if not config:
        raise not_found(domain_id, _what(group, option))
    return config


def _store(db, domain_id, config):
    for group, options in config.items():
        for option, value in options.items():
            db.execute(
                "INSERT OR REPLACE INTO domain_configs"
                " (domain_id, group_name, option, value, sensitive) VALUES (?, ?, ?, ?, ?)",
                (domain_id, group, option, json.dumps(value), int(option in SENSITIVE[group])),
            )


def create(db, domain_id, config):
    """Replace the domain's config; whether it had none (201)."""
    check_config(config)
    existed = bool(_rows(db, domain_id))
    db.execute("DELETE FROM domain_configs WHERE domain_id = ?", (domain_id,))
    _store(db, domain_id, config)
    return not existed


def update(db, domain_id, config, group=None, option=None):
    """keystone's ``update_config``: merge, in a group or an option."""
    if group and option:
        config = {group: config}
    check_config(config)
    check_group_option(group, option)
    if group:
        if len(config) != 1 or (option and len(config.get(group, {})) != 1):
            if option:
                reason = (
                    "Trying to update option %s in group %s, so that, and only that, option"
                    " must be specified  in the config" % (option, group)
                )
            else:
                reason = (
                    "Trying to update group %s, so that, and only that, group must be"
                    " specified in the config" % group
                )
            raise invalid(reason)
        if group not in config:
            raise invalid(
                "request to update group %s, but config provided contains group %s instead"
                % (group, next(iter(config)))
            )
        if option and option not in config[group]:
            raise invalid(
                "Trying to update option %s in group %s, but config provided contains"
                " option %s instead" % (option, group, next(iter(config[group])))
            )
        present = {(r["group_name"], r["option"]) for r in _rows(db, domain_id)}
        if not any(g == group and (not option or o == option) for g, o in present):
            raise not_found(domain_id, _what(group, option))
    _store(db, domain_id, config)


def delete(db, domain_id, group=None, option=None):
    """Delete the config, a group or an option (NotFound if absent)."""
    check_group_option(group, option)
    sql, args = "DELETE FROM domain_configs WHERE domain_id = ?", [domain_id]
    if group:
        present = {(r["group_name"], r["option"]) for r in _rows(db, domain_id)}
        if not any(g == group for g, _ in present):
            raise not_found(domain_id, _what(group))
        if option and (group, option) not in present:
            raise not_found(domain_id, _what(group, option))
        sql += " AND group_name = ?"
        args.append(group)
        if option:
            sql += " AND option = ?"
            args.append(option)
    db.execute(sql, args)


def defaults(group=None, option=None):
    """keystone's defaults of the whitelisted options."""
    check_group_option(group, option)
    if option and option not in DEFAULTS[group]:
        raise invalid(
            "Reading the default for option %s in group %s is not supported" % (option, group)
        )
    if option:
        return {option: DEFAULTS[group][option]}
    if group:
        return {group: DEFAULTS[group]}
    return DEFAULTS
