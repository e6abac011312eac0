#!/usr/bin/env python3
# Adds lock entries for optional platform packages the registry mirror cannot resolve (see docs/DECISIONS.md).
import json,sys,re
p=sys.argv[1] if len(sys.argv) > 1 else "package-lock.json"
lock=json.load(open(p))
pk=lock['packages']
added=0
for path,meta in list(pk.items()):
    for dep,spec in (meta.get('optionalDependencies') or {}).items():
        base=path+'/node_modules/'+dep if path else 'node_modules/'+dep
        top='node_modules/'+dep
        if base in pk or top in pk: continue
        m=re.search(r'-(android|darwin|freebsd|linux|openharmony|win32)-(arm64|x64|arm|ia32|ppc64|s390x|riscv64|loong64)',dep)
        entry={'version':spec.lstrip('^~=')}
        if m:
            entry['cpu']=[m.group(2)]; entry['os']=[m.group(1)]
            if '-musl' in dep: entry['libc']=['musl']
            elif '-gnu' in dep: entry['libc']=['glibc']
        if meta.get('dev') or meta.get('devOptional'): entry['dev']=True
        entry['optional']=True
        pk[top]=entry; added+=1
json.dump(lock,open(p,'w'),indent=2); open(p,'a').write('\n')
print('added',added)
