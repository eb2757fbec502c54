"""How far people's results lie from the people-like player's: a predictive error model.

On a rule set people have played in numbers, people's attackers' share of the decided games
differs from the player's (its games counted as people's are, with the give-up model). The
model says how, on the logit scale (``log(share / (1 - share))``, where a difference means the
same whether the shares are near 50% or near 10%):

    people's logit = player's logit + a mean for the rule family + a rule set's own departure

- a *rule family* is how the king wins and whether he fights: escape to a corner or to the edge,
  the king armed or unarmed; each family people have played has its own mean difference, fitted
  to its rule sets; a family nobody has played gets the mean of the others, with their spread
  as more uncertainty;
- a rule set's *own departure* has a spread (``tau``) between rule sets, estimated from how much
  the rule sets of one family differ beyond their sampling error (DerSimonian and Laird's method
  of moments, pooled over the families);
- the sampling errors of both shares (binomial, on the logit scale) are added in quadrature; a
  published result without counts is taken as worth :data:`ASSUMED_GAMES` decided games;
- with so few rule sets (seven), the uncertainty of the fit is carried by a Student *t*
  distribution with (rule sets - families) degrees of freedom instead of a normal one.

The prediction for a reconstruction is a *t* distribution of people's logit: :func:`predict`.
Its verdict (:func:`verdict`) is the chance that people's attackers would win more than half the
decided games: *attackers ahead* above :data:`AHEAD`, *defenders ahead* below ``1 - AHEAD``, else
*cannot tell*; *even* only where the 90% interval lies within :data:`EVEN_MARGIN` of one half
(two one-sided tests at 5%).

>>> round(t_cdf(2.015, 5), 3), round(t_quantile(0.95, 5), 3)
(0.95, 2.015)
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

#: a published result without counts is taken to rest on this many decided games
ASSUMED_GAMES = 100
#: the verdict's threshold on the chance that people's attackers' share is above one half
AHEAD = 0.9
#: "even": the 90% interval of people's share lies within this many points of 50%
EVEN_MARGIN = 0.05
LEVEL = 0.90


def logit(p: float) -> float:
    return math.log(p / (1 - p))


def expit(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def logit_var(share: float, decided: float) -> float:
    """The binomial variance of a share's logit (the delta method), the share kept off 0 and 1."""
    share = min(max(share, 0.5 / decided), 1 - 0.5 / decided)
    return 1 / (decided * share * (1 - share))


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (Numerical Recipes' betacf)."""
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > 1e-300 else 1e-300)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1 + aa / c if abs(1 + aa / c) > 1e-300 else 1e-300
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1 + aa / c if abs(1 + aa / c) > 1e-300 else 1e-300
        step = d * c
        h *= step
        if abs(step - 1) < 1e-14:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution function with ``df`` degrees of freedom."""
    tail = 0.5 * _betainc(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t (bisection on :func:`t_cdf`)."""
    lo, hi = -1e3, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def family(escape: str, king_armed: str) -> str:
    """A rule set's family: where the king escapes (a corner, or the edge) and whether he is armed."""
    return f"{'corner' if escape == 'corner' else 'edge'} escape, king {'unarmed' if king_armed == 'no' else 'armed'}"


class Fit(NamedTuple):
    """The error model fitted to people's results: each family's mean difference (logit) and
    its variance, the spread between rule sets, the degrees of freedom, and the rule sets."""

    means: dict[str, float]
    mean_vars: dict[str, float]
    tau2: float
    df: int
    rule_sets: int
    other_mean: float
    other_var: float

    def to_dict(self) -> dict[str, Any]:
        return {"means": self.means, "mean_vars": self.mean_vars, "tau2": self.tau2, "df": self.df,
                "rule_sets": self.rule_sets, "other_mean": self.other_mean, "other_var": self.other_var}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Fit":
        return cls(dict(data["means"]), dict(data["mean_vars"]), float(data["tau2"]), int(data["df"]),
                   int(data["rule_sets"]), float(data["other_mean"]), float(data["other_var"]))


def rule_set_differences(rows: list[dict[str, Any]]) -> list[tuple[str, str, float, float]]:
    """(rule set, family, difference, its sampling variance) for each rule set: people's logit
    (the precision-weighted mean of its datasets) less the player's. Each row has ``rule_set``,
    ``family``, ``people`` (share) and ``people_games`` (decided; None: not published),
    ``player`` (share) and ``player_games`` (decided, as counted)."""
    out = []
    for rs in dict.fromkeys(r["rule_set"] for r in rows):
        mine = [r for r in rows if r["rule_set"] == rs]
        weights = [1 / logit_var(r["people"], r["people_games"] or ASSUMED_GAMES) for r in mine]
        people = sum(w * logit(r["people"]) for w, r in zip(weights, mine)) / sum(weights)
        player = mine[0]["player"]
        var = 1 / sum(weights) + logit_var(player, mine[0]["player_games"])
        out.append((rs, mine[0]["family"], people - logit(player), var))
    return out


def fit(rows: list[dict[str, Any]]) -> Fit:
    """Fit the model to people's results (rows as :func:`rule_set_differences` reads them)."""
    diffs = rule_set_differences(rows)
    families = list(dict.fromkeys(f for _rs, f, _d, _v in diffs))
    # DerSimonian-Laird, pooled over families: each family's fixed-effect mean first
    q = c = 0.0
    for f in families:
        mine = [(d, v) for _rs, g, d, v in diffs if g == f]
        w = [1 / v for _d, v in mine]
        mean = sum(wi * d for wi, (d, _v) in zip(w, mine)) / sum(w)
        q += sum(wi * (d - mean) ** 2 for wi, (d, _v) in zip(w, mine))
        c += sum(w) - sum(wi * wi for wi in w) / sum(w)
    df = len(diffs) - len(families)
    tau2 = max(0.0, (q - df) / c) if c > 0 and df > 0 else 0.0
    means, mean_vars = {}, {}
    for f in families:
        mine = [(d, v) for _rs, g, d, v in diffs if g == f]
        w = [1 / (v + tau2) for _d, v in mine]
        means[f] = sum(wi * d for wi, (d, _v) in zip(w, mine)) / sum(w)
        mean_vars[f] = 1 / sum(w)
    # a family nobody has played: the mean of the families' means, with their spread added
    values = list(means.values())
    other = sum(values) / len(values)
    spread = sum((m - other) ** 2 for m in values) / (len(values) - 1) if len(values) > 1 else tau2
    other_var = sum(mean_vars.values()) / len(values) ** 2 + spread
    return Fit(means, mean_vars, tau2, max(df, 1), len(diffs), other, other_var)


class Prediction(NamedTuple):
    """People's attackers' share on a rule set, as the model predicts it: the centre (logit),
    its scale, the degrees of freedom, and whether the family was one people have played."""

    centre: float
    scale: float
    df: int
    played_family: bool

    def chance_attackers_ahead(self) -> float:
        return 1 - t_cdf(-self.centre / self.scale, self.df)

    def interval(self, level: float = LEVEL) -> tuple[float, float]:
        half = t_quantile(0.5 + level / 2, self.df) * self.scale
        return expit(self.centre - half), expit(self.centre + half)

    @property
    def share(self) -> float:
        return expit(self.centre)


def predict(model: Fit, fam: str, player: float, player_games: float, people_games: float | None = None) -> Prediction:
    """The prediction for a rule set of family ``fam`` where the player's share (counted as
    people's) is ``player`` over ``player_games`` decided games; with ``people_games``, for a
    result of people's over that many decided games (its own sampling error added)."""
    played = fam in model.means
    mean = model.means[fam] if played else model.other_mean
    var = (model.mean_vars[fam] if played else model.other_var) + model.tau2 + logit_var(player, player_games)
    if people_games is not None:
        var += logit_var(expit(logit(player) + mean), people_games)
    return Prediction(logit(player) + mean, math.sqrt(var), model.df, played)


def verdict(prediction: Prediction) -> str:
    """``attackers ahead``, ``defenders ahead``, ``even`` or ``cannot tell`` (see the module)."""
    chance = prediction.chance_attackers_ahead()
    if chance > AHEAD:
        return "attackers ahead"
    if chance < 1 - AHEAD:
        return "defenders ahead"
    lo, hi = prediction.interval()
    if 0.5 - EVEN_MARGIN <= lo and hi <= 0.5 + EVEN_MARGIN:
        return "even"
    return "cannot tell"


def leave_one_out(rows: list[dict[str, Any]], level: float = LEVEL) -> list[dict[str, Any]]:
    """For each dataset: the model fitted without its rule set (so without the dataset and any other
    result on the same rules), its prediction of that result, and whether the result falls inside
    the ``level`` predictive interval."""
    out = []
    for r in rows:
        rest = [x for x in rows if x["rule_set"] != r["rule_set"]]
        model = fit(rest)
        pred = predict(model, r["family"], r["player"], r["player_games"], r["people_games"] or ASSUMED_GAMES)
        lo, hi = pred.interval(level)
        out.append({"id": r["id"], "people": r["people"], "predicted": round(pred.share, 4), "low": round(lo, 4),
                    "high": round(hi, 4), "inside": lo <= r["people"] <= hi, "family_played": pred.played_family})
    return out


def two_proportions(a1: float, n1: float, a2: float, n2: float) -> tuple[float, float, float]:
    """The difference of two shares (the second less the first), its z statistic and two-sided
    p-value (the pooled normal test)."""
    p1, p2 = a1 / n1, a2 / n2
    pooled = (a1 + a2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    z = (p2 - p1) / se if se else 0.0
    return p2 - p1, z, 2 * (1 - normal_cdf(abs(z)))


def normal_cdf(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def normal_quantile(p: float) -> float:
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if normal_cdf(mid) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment of ``pvalues`` for the number of comparisons.

    >>> [round(p, 3) for p in holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    order = sorted(range(len(pvalues)), key=pvalues.__getitem__)
    out = [0.0] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        out[i] = running
    return out


def smallest_shift(share: float, n1: float, n2: float, comparisons: int, power: float = 0.8, alpha: float = 0.05) -> float:
    """The smallest difference of two shares near ``share`` that a two-sided test at ``alpha``
    (Bonferroni over ``comparisons``) would find with chance ``power``, with n1 and n2 decided games."""
    z = normal_quantile(1 - alpha / (2 * comparisons)) + normal_quantile(power)
    return z * math.sqrt(share * (1 - share) * (1 / n1 + 1 / n2))
