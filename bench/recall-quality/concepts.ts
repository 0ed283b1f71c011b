/**
 * The concepts generated notes are about: English inflected forms (the first is the base form),
 * synonyms a person might type instead, and the word in Swedish and Chinese (as the seed asks
 * notes to carry in their tags). Ground truth for relevance is the concept, not the text.
 */
export interface Concept {
  forms: string[];
  synonyms: string[];
  sv: string;
  zh: string;
}

const RAW = `
merge,merging,merged,merges|combine,integrate|sammanfoga|合并
deploy,deploying,deployed,deployment,deployments|release,ship|driftsätta|部署
database,databases|datastore|databas|数据库
migration,migrations,migrate,migrating|schema change|migrering|迁移
test,tests,testing,tested|spec,check|testfall|测试
cache,caching,cached,caches|memoize|cacheminne|缓存
login,logins,logging in|sign in,authentication|inloggning|登录
pricing,prices,priced|cost,tariff|prissättning|价格
invoice,invoices,invoicing,invoiced|bill,receipt|faktura|发票
payment,payments,paying,paid|checkout,charge|betalning|支付
build,builds,building,built|compile,bundle|bygge|构建
branch,branches,branching|fork|gren|分支
commit,commits,committing,committed|changeset|incheckning|提交
server,servers|backend,host|värddator|服务器
configuration,configurations,configure,configured,configuring|settings,config|konfiguration|配置
log,logs,logged,logger|trace|loggfil|日志
error,errors|failure,exception|felmeddelande|错误
timeout,timeouts,timed out|deadline,stall|tidsgräns|超时
queue,queues,queued,queueing|backlog|kö|队列
backup,backups,backed up|snapshot,copy|säkerhetskopia|备份
sync,syncing,synced,synchronization|replicate|synkronisering|同步
search,searching,searched,searches|lookup,find|sökning|搜索
index,indexes,indexing,indexed|catalog|register|索引
font,fonts|typeface,typography|typsnitt|字体
layout,layouts|grid,arrangement|sidlayout|布局
button,buttons|control|knapp|按钮
color,colors,colour,coloured|palette,hue|färg|颜色
theme,themes,theming|skin,appearance|tema|主题
translation,translations,translate,translated,translating|localization,i18n|översättning|翻译
notification,notifications,notify,notified|alert,reminder|avisering|通知
email,emails,emailed|mail,message|epost|邮件
upload,uploads,uploading,uploaded|attach|uppladdning|上传
download,downloads,downloading,downloaded|fetch|nedladdning|下载
image,images|picture,photo|bild|图片
permission,permissions|access right,authorization|behörighet|权限
session,sessions|visit|session|会话
token,tokens|credential|nyckel|令牌
report,reports,reporting,reported|summary|rapport|报告
chart,charts,charting|graph,plot|diagram|图表
export,exports,exporting,exported|dump|export|导出
import,imports,importing,imported|ingest|import|导入
endpoint,endpoints|route,api|slutpunkt|接口
retry,retries,retrying,retried|backoff|nytt försök|重试
crash,crashes,crashing,crashed|panic,segfault|krasch|崩溃
performance,performant|speed,latency|prestanda|性能
benchmark,benchmarks,benchmarking|measurement|prestandatest|基准
dependency,dependencies|package,library|beroende|依赖
upgrade,upgrades,upgrading,upgraded|update,bump|uppgradering|升级
schedule,schedules,scheduling,scheduled|cron,timer|schema|调度
customer,customers|client,user account|kund|客户
subscription,subscriptions,subscribe,subscribed|plan,membership|prenumeration|订阅
refund,refunds,refunding,refunded|chargeback|återbetalning|退款
encryption,encrypt,encrypted,encrypting|cipher|kryptering|加密
password,passwords|passphrase|lösenord|密码
keyboard,keyboards|hotkey,shortcut|tangentbord|键盘
animation,animations,animate,animated|transition,motion|animering|动画
accessibility,accessible|a11y,screen reader|tillgänglighet|无障碍
review,reviews,reviewing,reviewed|feedback,critique|granskning|审查
release note,release notes|changelog|versionsinformation|发布说明
container,containers,containerized|docker,pod|behållare|容器
`;

export const CONCEPTS: Concept[] = RAW.trim()
  .split('\n')
  .map((line) => {
    const [forms, synonyms, sv, zh] = line.split('|') as [string, string, string, string];
    return { forms: forms.split(','), synonyms: synonyms.split(','), sv, zh };
  });

/** Plain English words for sentences around the concepts (a realistic share of stop words). */
export const FILLER = `the a we our this that it is was be to of in on for with when before after always never
should must use used using keep kept make sure check run not only also then because so if team people
page app user users new old first last every each small large fast slow issue fix fixed works work
working note notes file files folder value values default option options step steps code change
changes problem case cases local remote daily weekly manual automatic careful instead rather`
  .split(/\s+/)
  .filter(Boolean);

/** Chinese glue between concept words in Chinese summaries. */
export const ZH_GLUE = ['的', '前先', '时要', '和', '需要', '不要', '总是', '之后', '问题', '方案'];
