"""English title phrases in Chinese, by rule: a small lexicon and the few word orders titles use.

A phrase is translated only when every word of it is known: a word of the lexicon, or a name,
code, path, version or identifier, which stays as written ("`TypedDict`", "Megatron", "v2.1",
"verl/utils"). Anything else (an unknown word, a clause with "when" or "if") makes the whole
phrase untranslatable (None), and the caller quotes the original: a quotation is never wrong,
a guessed translation can be. Words with more than one common sense in these projects
("inference": 推断 of types or 推理 of models; "image": 镜像 or 图像; "variable": 变量 or 可变的)
are left out of the lexicon for that reason, and so are verbs with no one Chinese verb ("make",
"resolve": 解决 a conflict or 解析 a name).

    noun_phrase("unused imports")               -> "未使用的导入"
    predicate("fix", "typo in the README")      -> "修复 README 中的拼写错误"
    predicate("add", "tests for `Parser`")      -> "为 `Parser` 新增测试"
    predicate("use", "X to do Y")               -> None  (not "改用 …")
"""

from __future__ import annotations

import re

from digest_plugin.narrate.verbs import FORMS, VERBS, word_pairs

# English word (lower case, singular) -> Chinese. Nouns and the adjectives titles put before them.
WORDS = {
    # code and its parts
    **word_pairs("""
        code=代码 function=函数 method=方法 class=类 module=模块 package=包 crate=包 type=类型
        parameter=参数 argument=参数 attribute=属性 property=属性 field=字段 member=成员 value=值
        expression=表达式 statement=语句 string=字符串 literal=字面量 tuple=元组 list=列表 dict=字典
        dictionary=字典 enum=枚举 import=导入 decorator=装饰器 annotation=注解 comment=注释
        docstring=文档字符串 signature=签名 constructor=构造函数 callable=可调用对象 alias=别名
        keyword=关键字 operator=运算符 scope=作用域 namespace=命名空间 stub=存根 generic=泛型
        protocol=协议 overload=重载 subclass=子类 instance=实例 object=对象 file=文件 directory=目录
        folder=目录 path=路径 name=名称 identifier=标识符 symbol=符号 syntax=语法 parser=解析器
        formatter=格式化器 linter=检查器 checker=检查器 rule=规则 lint=检查 diagnostic=诊断 fix=修复
        autofix=自动修复 suggestion=建议 completion=补全 hover=悬停提示 hint=提示 snapshot=快照
        fixture=测试夹具
    """),
    # project matters
    **word_pairs("""
        test=测试 doc=文档 docs=文档 documentation=文档 readme=README changelog=变更日志
        example=示例 tutorial=教程 guide=指南 typo=拼写错误 link=链接 section=章节 page=页面
        release=发布 version=版本 dependency=依赖 config=配置 configuration=配置 setting=设置
        option=选项 flag=选项 script=脚本 workflow=工作流 job=任务 pipeline=流水线 action=操作
        hook=钩子 build=构建 benchmark=基准测试 template=模板 theme=主题 plugin=插件 extension=扩展
        command=命令 output=输出 input=输入 message=信息 log=日志 logging=日志 warning=警告
        error=错误 exception=异常 bug=缺陷 crash=崩溃 panic=崩溃 regression=回归 deadlock=死锁
        leak=泄漏 timeout=超时 issue=问题 problem=问题 behavior=行为 behaviour=行为 performance=性能
        speed=速度 memory=内存 cache=缓存 caching=缓存 compatibility=兼容性 support=支持
        feature=功能 mode=模式 api=API cli=CLI server=服务器 client=客户端 backend=后端
        frontend=前端 environment=环境 project=项目 workspace=工作区 repository=仓库 repo=仓库
        metadata=元数据 data=数据 dataset=数据集 metric=指标 index=索引 order=顺序 size=大小
        limit=限制 check=检查 validation=验证 handling=处理 parsing=解析 formatting=格式化
        rendering=渲染 loading=加载 usage=用法 implementation=实现 refactor=重构 improvement=改进
        cleanup=清理 change=改动 update=更新 upgrade=升级 typing=类型标注 checkpoint=检查点
        model=模型 training=训练 trainer=训练器 optimizer=优化器 scheduler=调度器 gradient=梯度
        weight=权重 loss=损失 batch=批次 sequence=序列 reward=奖励 algorithm=算法 article=文章
        feed=订阅源 category=分类 author=作者 title=标题 heading=标题 date=日期 translation=翻译
        language=语言 site=站点 pagination=分页 content=内容 summary=摘要 importer=导入器
        reader=读取器 writer=写入器 generator=生成器 signal=信号 url=URL digest=摘要
        toolchain=工具链 sync=同步 safety=安全性 call=调用 context=上下文 narrowing=收窄
        assignment=赋值 generation=生成 range=范围 engine=引擎 entry=条目 simplification=简化
        format=格式 specialization=特化 semantic=语义 loop=循环 video=视频 policy=策略 override=覆盖
        definition=定义 coverage=覆盖率 tuning=调优 assertion=断言 description=描述 spelling=拼写
        comparison=比较 comprehension=推导式 variant=变体 access=访问 severity=严重级别
        conformance=一致性 discovery=发现 reference=引用 news=新闻 chinese=中文 english=英文
        tag=标签 instruction=说明 upstream=上游
    """),
}
# adjectives: before a noun, never last in a phrase ("use X more" is not "使用 X 更多")
ADJECTIVES = word_pairs("""
    new=新的 default=默认 dev=开发 unused=未使用的 missing=缺失的 invalid=无效的 incorrect=错误的
    wrong=错误的 duplicate=重复的 redundant=冗余的 unnecessary=不必要的 deprecated=已弃用的
    legacy=旧的 old=旧的 empty=空 nested=嵌套 recursive=递归 custom=自定义 multiple=多个 async=异步
    asynchronous=异步 parallel=并行 distributed=分布式 global=全局 static=静态 dynamic=动态
    explicit=显式 implicit=隐式 optional=可选 required=必需 broken=失效的 minor=少量 small=小
    initial=初步 basic=基本 better=更好的 unit=单元 integration=集成 internal=内部 external=外部
    public=公开 private=私有 unsupported=不支持的 unreachable=不可达的 duplicated=重复的
    failing=失败的 flaky=不稳定的 raw=原始 relative=相对 lazy=惰性 full=完整 cyclic=循环
    experimental=实验性 stable=稳定 preview=预览 latest=最新 current=当前 additional=额外 extra=额外
    more=更多 some=一些 all=所有 various=多处 several=若干
""")
WORDS.update(ADJECTIVES)
# words that end in "s" without being plurals, and plurals a bare "s" does not undo
_SINGULAR = {
    **{word: word for word in "docs news class alias status process analysis".split()},
    **word_pairs("""
        aliases=alias classes=class dependencies=dependency properties=property libraries=library
        directories=directory categories=category dictionaries=dictionary statuses=status
        processes=process indices=index indexes=index matches=match patches=patch caches=cache
        fixes=fix typos=typo crashes=crash panics=panic leaks=leak behaviors=behavior
    """),
}
# several words that mean one thing
PHRASES = word_pairs(
    """
    false positive=误报, false negative=漏报, type checking=类型检查, type checker=类型检查器,
    type hint=类型提示, type annotation=类型注解, type alias=类型别名, type variable=类型变量,
    type parameter=类型参数, return type=返回类型, unit test=单元测试, integration test=集成测试,
    end-to-end test=端到端测试, e2e test=端到端测试, error message=错误信息, default value=默认值,
    syntax error=语法错误, keyword argument=关键字参数, pre-commit hook=pre-commit 钩子,
    rust crate=Rust 包, github action=GitHub 操作, learning rate=学习率, memory leak=内存泄漏,
    code block=代码块, file extension=文件扩展名, reference documentation=参考文档,
    reference doc=参考文档, code action=代码操作, code style=代码风格, command line=命令行,
    language server=语言服务器, pull request=PR, release note=发布说明, dev dependency=开发依赖,
    development dependency=开发依赖, python version=Python 版本, minimum version=最低版本,
    fix safety=修复安全性, environment variable=环境变量, class variable=类变量,
    local variable=局部变量, edge case=边界情况, test case=测试用例, test suite=测试集,
    ci job=CI 任务, ci workflow=CI 工作流
""",
    ",",
)
_ARTICLES = frozenset(("a", "an", "the"))
# "Fix X in Y": the preposition and the Chinese word order it asks for, {a} the object, {b} where, {v} the verb
_PLACES = word_pairs(
    """in=在 {b} 中{v} {a}, inside=在 {b} 中{v} {a}, within=在 {b} 中{v} {a}, on=在 {b} 上{v} {a},
    for=为 {b} {v} {a}, of={v} {b} 的 {a}, from=从 {b} 中{v} {a}, to=为 {b} {v} {a}""",
    ",",
)
# verbs whose object moves away with "from": other verbs with "from" are not said
_FROM_VERBS = frozenset(
    "remove delete drop exclude extract strip split separate hide omit filter".split()
)
_FOR_OBJECTS = frozenset(("support", "fix", "autofix"))  # what is "for" something: said 对 X 的支持
_TO_VERBS = frozenset(("add", "include", "pass", "apply", "expose", "propagate", "attach"))
HAN = re.compile(r"[\u4e00-\u9fff]")  # a Chinese character
_CJK_GAP = re.compile(
    r"(?<=[\u4e00-\u9fff）：，、])\s+(?=[\u4e00-\u9fff（])|(?<=[\u4e00-\u9fff])\s+(?=[（：，、])"
)
# a word, name or code span (with what is glued to it: "`a`/`b`"), a bracketed aside, or a comma; a full stop or
# colon at a word's end is its own token, so that "consistently." is not taken for a name
_TOKEN = re.compile(
    r"\([^()]*\)|(?:`[^`]*`|\[[^\]]*\]|[^\s,`\[])+?(?=[.:;!?]*(?:\s|,|$))|[.:;!?]+|,"
)
_LATIN_END = re.compile(r"[A-Za-z0-9_`)\]}'\"./+-]$")
_LATIN_START = re.compile(r"^[A-Za-z0-9_`(\[{'\"./@#-]")


def is_name(token: str, names: frozenset[str] = frozenset()) -> bool:
    """A name, code, path, version or identifier, said as written: `code`, v2.1, verl/utils,
    TypedDict, NPU, Megatron, flash_attn, --fix, #12; or one of `names`."""
    core = token.strip("'\"")
    if not core or not re.search(r"\w", core):
        return False
    if token[0] in "'\"" and token.count(token[0]) % 2:
        return False  # "''modified:'": a quotation left open is not a name
    if core in names or (core.startswith("`") and core.endswith("`")):
        return True
    if "`" in core:
        return False  # "using`AsyncMock`": a word glued to code
    if "[" in core:  # "Intersection[A, B]" is code, "[part 1]" words
        inner = re.findall(r"\[([^\]]*)\]", core)
        return all(
            is_name(word, names) for part in inner for word in part.replace(",", " ").split()
        ) and bool(core.split("[")[0] or inner)
    # "verl/utils" is a path, "extra/optional" two words
    if re.fullmatch(r"[A-Za-z-]+(?:/[A-Za-z-]+)+", core):
        return not any(_singular(part.lower()) in WORDS for part in core.split("/"))
    if re.search(r"[0-9_./:@#=<>+]|::|\(\)|^--?\w", core) or re.search(r"[a-z][A-Z]", core):
        return True
    return core[0].isupper() and not english_word(core.lower()) and core.lower() not in _ARTICLES


def english_word(word: str) -> bool:
    """A word of the lexicon, or a form of a verb the titles know ("using", "added"): not a name
    even when capitalised."""
    stems = (word, word[:-3], word[:-3] + "e", word[:-2], word[:-1], word[:-4] + "y")
    return _singular(word) in WORDS or word in FORMS or any(stem in VERBS for stem in stems)


def noun_phrase(
    text: str, sentence_start: bool = False, names: frozenset[str] = frozenset()
) -> str | None:
    """The phrase in Chinese, or None when a word of it is unknown. "and" and commas join phrases
    ("A and B" -> "A 和 B", "A, B and C" -> "A、B 和 C"); a trailing "(…)" of names stays. At the
    start of a sentence a capital says nothing: a plain capitalised word there must be known."""
    text = text.strip().rstrip(".")
    first = text.split(None, 1)[0] if text else ""
    if not text or (
        sentence_start and first.isalpha() and first.lower() not in WORDS and not first.isupper()
    ):
        return None
    parts = [
        p for p in _outside_brackets(re.split(r"(,\s*(?:and\s+)?|\s+and\s+)", text)) if p.strip()
    ]
    said = [phrase for part in parts if (phrase := _one_phrase(part, names)) is not None]
    if len(said) < len(parts):
        return None
    if len(said) == 1:
        return said[0]
    return "、".join(said[:-1]) + " 和 " + said[-1]


def _outside_brackets(pieces: list[str]) -> list[str]:
    """The parts `re.split` with a captured separator gave, joined again where a separator stood
    inside brackets ("Intersection[A, B]" is one name)."""
    parts, depth = [""], 0
    for index, piece in enumerate(pieces):
        if index % 2 and depth <= 0:
            parts.append("")
            continue
        parts[-1] += piece
        depth += sum(piece.count(c) for c in "([{") - sum(piece.count(c) for c in ")]}")
    return parts


def _one_phrase(text: str, names: frozenset[str]) -> str | None:
    tokens = [t for t in _TOKEN.findall(text) if t != ","]
    if any(re.fullmatch(r"[.:;!?]+", t) for t in tokens):
        return None  # a sentence ends inside it: "Set X consistently. Fixes #12"
    pieces: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        lower = token.lower()
        two = " ".join(t.lower() for t in tokens[index : index + 2])
        if lower in _ARTICLES:
            index += 1
            continue
        phrase = PHRASES.get(two) or PHRASES.get(_singular_phrase(two))
        if phrase and index + 1 < len(tokens):
            pieces.append(phrase)
            index += 2
            continue
        said = _one_token(token, names)
        if said is None:
            return None
        pieces.append(said)
        index += 1
    if not pieces or _singular(tokens[-1].lower()) in ADJECTIVES:
        return None
    return join(pieces)


def _one_token(token: str, names: frozenset[str]) -> str | None:
    """A word, a name (kept as written) or a bracketed aside of names, in Chinese; None if unknown."""
    if token.startswith("(") and token.endswith(")"):
        inner = token[1:-1].replace(",", " ").split()
        return (
            f"（{token[1:-1]}）" if inner and all(is_name(part, names) for part in inner) else None
        )
    if token.endswith(("'s", "’s")) and is_name(token[:-2], names):
        return f"{token[:-2]} 的"  # "Ruff's GitHub output": Ruff 的 GitHub 输出
    if is_name(token, names):
        return token
    return WORDS.get(_singular(token.lower()))


def _singular(word: str) -> str:
    if word in WORDS or word in _SINGULAR:
        return _SINGULAR.get(word, word)
    if word.endswith("ies") and word[:-3] + "y" in WORDS:
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2] in WORDS and word[:-2].endswith(("s", "x", "ch", "sh")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and word[:-1] in WORDS else word


def _singular_phrase(words: str) -> str:
    first, _, last = words.partition(" ")
    last = _SINGULAR.get(
        last, last[:-1] if last.endswith("s") and not last.endswith("ss") else last
    )
    return f"{first} {last}" if last else words


def join(pieces: list[str]) -> str:
    """Chinese words run together; a space where Chinese meets Latin letters, as the site writes."""
    text = ""
    for piece in pieces:
        if (
            text
            and (_LATIN_END.search(text) or _LATIN_START.search(piece))
            and not piece.startswith("（")
            and not text.endswith(("（", "、"))
        ):
            text += " "
        text += piece
    return tidy(text)


def predicate(verb: str, chinese_verb: str, rest: str) -> str | None:
    """ "{verb} {rest}" in Chinese ("fix" "修复" "typo in docs" -> "在文档中修复拼写错误"), or None."""
    place = _split_place(rest)
    if place is None:
        phrase = noun_phrase(rest)
        return join([chinese_verb, phrase]) if phrase else None
    what, preposition, where = place
    if (preposition == "from" and verb not in _FROM_VERBS) or (
        preposition == "to" and verb not in _TO_VERBS
    ):
        return None
    a, b = noun_phrase(what), noun_phrase(where)
    if not a or not b:
        return None
    # "stabilize support for X": 对 X 的支持
    if preposition == "for" and _singular(what.lower()) in _FOR_OBJECTS:
        return tidy(f"{chinese_verb}对 {b} 的{a}")
    return tidy(_PLACES[preposition].format(a=a, b=b, v=chinese_verb))


def tidy(text: str) -> str:
    """No space between two Chinese characters; one between Chinese and Latin letters."""
    return _CJK_GAP.sub("", re.sub(r"\s+", " ", text)).strip()


def _split_place(rest: str) -> tuple[str, str, str] | None:
    """(object, preposition, where) at the one preposition outside code, or None without one.
    Two prepositions, or a word that starts a clause ("when", "if", "by", "with"), are not split
    here: the noun phrase then fails on them, and the title is quoted."""
    tokens = _TOKEN.findall(rest)
    found = [i for i, t in enumerate(tokens) if t.lower() in _PLACES]
    if len(found) != 1 or found[0] == 0:
        return None
    i = found[0]
    return (
        " ".join(tokens[:i]).replace(" ,", ","),
        tokens[i].lower(),
        " ".join(tokens[i + 1 :]).replace(" ,", ","),
    )
