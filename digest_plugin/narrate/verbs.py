"""The verbs PR titles start with: each one's English third person and Chinese, and their other forms.

`titles.py` finds a title's leading verb with them; `chinese.py` knows from them that a
capitalised "Using" is a word, not a name.
"""


def word_pairs(text: str, between: str | None = None) -> dict[str, str]:
    """A table written as "english=中文" pairs, `between` them white space or the separator given."""
    return dict(pair.strip().split("=") for pair in text.split(between) if pair.strip())


def _third_person(verb: str) -> str:
    """ "adds", "fixes", "applies": the verbs below all make it by the rule."""
    if verb.endswith(("s", "sh", "ch", "x")):
        return verb + "es"
    if verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# base verb -> (English third person, Chinese; None where no one Chinese verb fits: "make X async",
# written "make=" below).
VERBS = {
    verb: (_third_person(verb), chinese or None)
    for verb, chinese in word_pairs("""
        add=新增 introduce=引入 implement=实现 support=支持 fix=修复 deprecate=弃用 remove=移除
        delete=删除 drop=移除 update=更新 upgrade=升级 bump=升级 downgrade=降级 use=使用 avoid=避免
        improve=改进 optimize=优化 move=移动 allow=允许 enable=启用 disable=禁用 refactor=重构
        rename=重命名 handle=处理 preserve=保留 skip=跳过 ignore=忽略 detect=检测 document=
        simplify=简化 reduce=减少 replace=替换 migrate=迁移 correct=修正 ensure=确保 prevent=防止
        restore=恢复 revert=回退 extend=扩展 clarify=澄清 validate=校验 unify=统一 increase=提高
        expand=扩展 split=拆分 cache=缓存 stabilize=稳定化 respect=遵循 infer=推断 sync=同步
        reject=拒绝 emit=输出 include=纳入 exclude=排除 suppress=抑制 clean=清理 pin=固定
        integrate=集成 follow=遵循 switch=切换 speed=加速 change=修改 check=检查 set=设置 mark=标记
        apply=应用 run=运行 show=显示 pass=传递 recognize=识别 normalize=规范化
        disallow=禁止 reuse=复用 render=渲染 modify=修改 convert=转换 separate=分离 consolidate=合并
        track=跟踪 ban=禁止 limit=限制 create=创建 extract=提取 enforce=强制执行 align=对齐
        prefer=优先使用 omit=省略 retain=保留 require=要求 propagate=传播 filter=过滤 report=报告
        combine=合并 restrict=限制 expose=暴露 prepare=准备 publish=发布 install=安装 tweak=调整
        adjust=调整 tune=调优 rewrite=重写 reorganize=重组 refine=完善 polish=完善 revise=修订
        print=打印 load=加载 save=保存 read=读取 write=写入 parse=解析 generate=生成 register=注册
        configure=配置 initialize=初始化 wrap=封装 hide=隐藏 export=导出 raise=抛出 unpin=取消固定
        rework=重做 defer=推迟 accept=接受 display=显示 enhance=增强 adapt=适配 discover=发现
        accelerate=加速 retire=停用 provide=提供 start=开始 stop=停止 try=尝试 warn=警告
        consider=考虑 store=存储 share=共享 deduplicate=去重 compact=压缩 specify=指定 synthesize=生成 recover=恢复
        exempt=豁免 diagnose=诊断 silence=屏蔽 distinguish=区分 promote=提升 visit=访问 complete=完善
        translate=翻译 pad=填充 compute=计算 reset=重置 flag=标记 highlight=高亮 isolate=隔离 specialize=特化
        disambiguate=消除歧义 understand=理解 offer=提供 honor=遵循 standardize=统一 strip=去除
        modernize=现代化 choose=选择 define=定义 enrich=丰富 collect=收集 bind=绑定 shrink=缩小
        hotfix=修复 keep=保留 catch=捕获 truncate=截断 attach=附加 tighten=收紧 classify=分类
        sort=排序
        narrow=收窄 make= treat= parenthesize= resolve=
    """).items()
}
# other forms of the same verbs a title may start with
FORMS = word_pairs("""
    adds=add added=add adding=add fixes=fix fixed=fix fixing=fix supports=support removes=remove
    removed=remove updates=update updated=update bumps=bump upgrades=upgrade deprecates=deprecate
    introduces=introduce implements=implement refactors=refactor refactored=refactor uses=use
    improves=improve using=use retires=retire improved=improve implemented=implement
    introduced=introduce enabled=enable disabled=disable renamed=rename replaced=replace
""")
