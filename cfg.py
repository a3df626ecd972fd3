import sys, hashlib
from Mailnag.common.config import read_cfg, write_cfg, cfg_file
from Mailnag.common.accounts import Account, AccountManager
password = sys.stdin.readline().rstrip("\n")
user, server, port = sys.argv[1:4]
cfg = read_cfg()
cfg.set('core', 'enabled_plugins', 'libnotifyplugin')
cfg.set('core', 'autostart', '0')
manager = AccountManager()
manager.add(Account(mailbox_type='imap', enabled=True, name='bench', user=user, password=password, server=server, port=port, ssl=False, imap=True, idle=True, folders=[]))
manager.save_to_cfg(cfg)
write_cfg(cfg)
check = AccountManager(); check.load_from_cfg(read_cfg(), enabled_only=True)
acc = check.to_list()[0]
expected = hashlib.md5((user + server + "True").encode()).hexdigest()
assert manager._get_account_id(user, server, True) == expected
assert acc.password == password, "the secret did not round-trip through the Secret Service"
print("stored", expected, cfg_file)
