"""The verbs PR titles start with: each one's English third person and Chinese, and their other forms.

`titles.py` finds a title's leading verb with them; `chinese.py` knows from them that a
capitalised "Using" is a word, not a name.
"""

# base verb -> (English third person, Chinese; None where no one Chinese verb fits: "make X async").
VERBS = {
    "add": ("adds", "新增"), "introduce": ("introduces", "引入"), "implement": ("implements", "实现"),
    "support": ("supports", "支持"), "fix": ("fixes", "修复"), "deprecate": ("deprecates", "弃用"),
    "remove": ("removes", "移除"), "delete": ("deletes", "删除"), "drop": ("drops", "移除"), "update": ("updates", "更新"),
    "upgrade": ("upgrades", "升级"), "bump": ("bumps", "升级"), "downgrade": ("downgrades", "降级"), "use": ("uses", "使用"),
    "avoid": ("avoids", "避免"), "improve": ("improves", "改进"), "optimize": ("optimizes", "优化"), "move": ("moves", "移动"),
    "allow": ("allows", "允许"), "enable": ("enables", "启用"), "disable": ("disables", "禁用"), "refactor": ("refactors", "重构"),
    "rename": ("renames", "重命名"), "handle": ("handles", "处理"), "preserve": ("preserves", "保留"), "skip": ("skips", "跳过"),
    "ignore": ("ignores", "忽略"), "detect": ("detects", "检测"), "document": ("documents", None), "simplify": ("simplifies", "简化"),
    "reduce": ("reduces", "减少"), "replace": ("replaces", "替换"), "migrate": ("migrates", "迁移"), "correct": ("corrects", "修正"),
    "ensure": ("ensures", "确保"), "prevent": ("prevents", "防止"), "restore": ("restores", "恢复"), "revert": ("reverts", "回退"),
    "extend": ("extends", "扩展"), "clarify": ("clarifies", "澄清"), "validate": ("validates", "校验"), "unify": ("unifies", "统一"),
    "increase": ("increases", "提高"), "expand": ("expands", "扩展"), "split": ("splits", "拆分"), "cache": ("caches", "缓存"),
    "stabilize": ("stabilizes", "稳定化"), "respect": ("respects", "遵循"), "infer": ("infers", "推断"), "sync": ("syncs", "同步"),
    "reject": ("rejects", "拒绝"), "emit": ("emits", "输出"), "include": ("includes", "纳入"), "exclude": ("excludes", "排除"),
    "suppress": ("suppresses", "抑制"), "clean": ("cleans", "清理"), "pin": ("pins", "固定"), "integrate": ("integrates", "集成"),
    "follow": ("follows", "遵循"), "switch": ("switches", "切换"), "speed": ("speeds", "加速"), "change": ("changes", "修改"),
    "check": ("checks", "检查"), "set": ("sets", "设置"), "mark": ("marks", "标记"), "apply": ("applies", "应用"),
    "resolve": ("resolves", None), "run": ("runs", "运行"), "show": ("shows", "显示"), "pass": ("passes", "传递"),
    "recognize": ("recognizes", "识别"), "normalize": ("normalizes", "规范化"), "disallow": ("disallows", "禁止"),
    "reuse": ("reuses", "复用"), "render": ("renders", "渲染"), "modify": ("modifies", "修改"),
    "convert": ("converts", "转换"), "separate": ("separates", "分离"), "consolidate": ("consolidates", "合并"),
    "track": ("tracks", "跟踪"), "ban": ("bans", "禁止"), "limit": ("limits", "限制"), "create": ("creates", "创建"),
    "extract": ("extracts", "提取"), "enforce": ("enforces", "强制执行"), "align": ("aligns", "对齐"), "prefer": ("prefers", "优先使用"),
    "omit": ("omits", "省略"), "retain": ("retains", "保留"), "require": ("requires", "要求"), "propagate": ("propagates", "传播"),
    "filter": ("filters", "过滤"), "report": ("reports", "报告"), "combine": ("combines", "合并"), "restrict": ("restricts", "限制"),
    "expose": ("exposes", "暴露"), "prepare": ("prepares", "准备"), "publish": ("publishes", "发布"), "install": ("installs", "安装"),
    "tweak": ("tweaks", "调整"), "adjust": ("adjusts", "调整"), "tune": ("tunes", "调优"), "rewrite": ("rewrites", "重写"),
    "reorganize": ("reorganizes", "重组"), "refine": ("refines", "完善"), "polish": ("polishes", "完善"), "revise": ("revises", "修订"),
    "print": ("prints", "打印"), "load": ("loads", "加载"), "save": ("saves", "保存"), "read": ("reads", "读取"),
    "write": ("writes", "写入"), "parse": ("parses", "解析"), "generate": ("generates", "生成"), "register": ("registers", "注册"),
    "configure": ("configures", "配置"), "initialize": ("initializes", "初始化"), "wrap": ("wraps", "封装"), "hide": ("hides", "隐藏"),
    "export": ("exports", "导出"), "raise": ("raises", "抛出"), "unpin": ("unpins", "取消固定"), "rework": ("reworks", "重做"),
    "defer": ("defers", "推迟"), "accept": ("accepts", "接受"), "display": ("displays", "显示"), "make": ("makes", None),
    "treat": ("treats", None), "narrow": ("narrows", None),
}
# other forms of the same verbs a title may start with
FORMS = {"adds": "add", "added": "add", "adding": "add", "fixes": "fix", "fixed": "fix", "fixing": "fix",
         "supports": "support", "removes": "remove", "removed": "remove", "updates": "update", "updated": "update",
         "bumps": "bump", "upgrades": "upgrade", "deprecates": "deprecate", "introduces": "introduce",
         "implements": "implement", "refactors": "refactor", "refactored": "refactor", "uses": "use", "improves": "improve"}
